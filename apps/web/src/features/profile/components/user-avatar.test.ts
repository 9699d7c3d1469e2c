import { describe, expect, it } from 'vitest';
import { avatarInitials } from './user-avatar';

describe('avatarInitials', () => {
  it('takes the first letters of the first two names', () => {
    expect(avatarInitials({ firstName: 'grace', lastName: 'Hopper', photoUrl: null })).toBe('GH');
  });

  it('takes two letters of a single name', () => {
    expect(avatarInitials({ firstName: 'Cher', lastName: '', photoUrl: null })).toBe('CH');
  });

  it('is empty when the avatar shows a picture', () => {
    expect(avatarInitials({ firstName: 'Grace', lastName: 'Hopper', photoUrl: '/api/photo/1' })).toBe('');
  });
});
