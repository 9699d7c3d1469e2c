import { DIFFICULTY_LABELS, MAX_DIFFICULTY } from '@tradecraft/shared';

/** 'Difficulty 3/5' */
export const difficultyText = (difficulty: number) => `Difficulty ${difficulty}/${MAX_DIFFICULTY}`;

/** 'Intermediate' */
export const difficultyName = (difficulty: number) => DIFFICULTY_LABELS[difficulty] ?? '';
