import type { Skills } from '@tradecraft/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, withQuery } from '../../../lib/api-client';
import { progressQueryKey } from './get-user-progress';

/** Whose skills: the signed-in user's own, one trainee's (admins), or everyone's together (admins). */
export type SkillsScope = { kind: 'me' } | { kind: 'user'; userId: string } | { kind: 'all' };

const scopeQuery = (scope: SkillsScope) => ({
  userId: scope.kind === 'user' ? scope.userId : undefined,
  all: scope.kind === 'all' ? 'true' : undefined,
});

export const getSkills = (scope: SkillsScope) => api.get<Skills>(withQuery('/api/progress/skills', scopeQuery(scope)));

export const skillsQueryOptions = (scope: SkillsScope) =>
  queryOptions({ queryKey: [...progressQueryKey, 'skills', scope], queryFn: () => getSkills(scope) });

export function useSkills(scope: SkillsScope) {
  return useQuery(skillsQueryOptions(scope));
}

/** The ATT&CK Navigator layer of the same scope (a plain download). */
export const skillsLayerUrl = (scope: SkillsScope) => withQuery('/api/progress/skills/layer', scopeQuery(scope));
