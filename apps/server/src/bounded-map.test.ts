import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('forgets the entry written longest ago once it holds more than its limit', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.keys()]).toEqual(['b', 'c']);
  });

  it('keeps an entry written again as the newest', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.delete('a');
    map.set('a', 1);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'c']);
  });

  it('overwriting a key it holds forgets nothing', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('b', 5);
    expect([...map.entries()]).toEqual([
      ['a', 1],
      ['b', 5],
    ]);
  });
});
