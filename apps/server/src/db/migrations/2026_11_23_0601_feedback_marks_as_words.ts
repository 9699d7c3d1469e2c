import { sql, type Kysely } from 'kysely';

// Feedback headlines used to start with an emoji mark ('✅ Correct!', '❌ Incorrect. ...', '◐ Partly right: ...'),
// which draws as an empty box on machines without an emoji font and in printed reports. The screens now draw
// the mark as an icon from the decision's verdict, so the stored words lose the character and its space.
// Every mark is one code point in both dialects' substr, so the words after it are kept exactly.
const MARKS = ['✅ ', '❌ ', '◐ '];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const mark of MARKS) {
    await db
      .updateTable('run_decisions')
      .set({ feedback: sql`substr(feedback, ${mark.length + 1})` })
      .where('feedback', 'like', `${mark}%`)
      .execute();
  }
}

// The marks are not put back: the words alone say the same.
export async function down(): Promise<void> {}
