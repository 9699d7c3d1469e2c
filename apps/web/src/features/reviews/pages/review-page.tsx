import { formatCredit, REVIEW_COMMENT_MAX, type ReviewDetail } from '@tradecraft/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';

import { WriteCheckList } from '../../../ui/write-checks';
import { useReview } from '../api/get-review';
import { useGradeReview } from '../api/grade-review';
import classes from './reviews.module.css';
import { formatDateTime } from '../../../lib/dates';

const maximum = (detail: ReviewDetail) => detail.rubric.reduce((sum, criterion) => sum + criterion.points, 0);

/** The final credit the points would give: auto share + (1 - auto weight) x points / maximum, after any hint charge. */
export function previewCredit(detail: ReviewDetail, points: number[]): number {
  const most = maximum(detail);
  const given = points.reduce((sum, value) => sum + value, 0);
  const rubricShare = most > 0 ? ((1 - detail.autoWeight) * given) / most : 0;
  const charge = detail.hintCharged ? 1 - detail.hintCost : 1;
  return detail.autoCredit + rubricShare * charge;
}

function GradeForm({ detail }: { detail: ReviewDetail }) {
  const [points, setPoints] = useState<number[]>(() => detail.points ?? detail.rubric.map(() => 0));
  const [comment, setComment] = useState(detail.comment ?? '');
  const grade = useGradeReview(detail.id);
  const graded = detail.status === 'graded';
  const total = points.reduce((sum, value) => sum + value, 0);

  return (
    <Stack
      component="form"
      gap="sm"
      onSubmit={(event) => {
        event.preventDefault();
        grade.mutate({ points, comment });
      }}
    >
      <Title order={2} size="h4">
        Rubric
      </Title>
      {detail.rubric.map((criterion, index) => (
        <NumberInput
          key={index}
          label={criterion.criterion}
          description={`0 to ${criterion.points} ${criterion.points === 1 ? 'point' : 'points'}`}
          min={0}
          max={criterion.points}
          clampBehavior="strict"
          allowDecimal={false}
          allowNegative={false}
          value={points[index]}
          readOnly={graded}
          onChange={(value) =>
            setPoints((current) =>
              current.map((old, at) => (at === index ? (typeof value === 'number' ? value : 0) : old)),
            )
          }
        />
      ))}
      <Text size="sm" className="tabular-nums" role="status">
        {total} of {maximum(detail)} points: the step&apos;s credit becomes{' '}
        {formatCredit(previewCredit(detail, points))} (automatic share {formatCredit(detail.autoCredit)}
        {detail.hintCharged ? `, hint charged` : ''}).
      </Text>
      <Textarea
        label="Comment for the trainee"
        autosize
        minRows={3}
        maxRows={10}
        maxLength={REVIEW_COMMENT_MAX}
        value={comment}
        readOnly={graded}
        onChange={(event) => setComment(event.currentTarget.value)}
      />
      {grade.error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {grade.error instanceof ApiError && grade.error.issues?.length
            ? grade.error.issues.map((issue) => issue.message).join(' ')
            : grade.error.message}
        </Alert>
      )}
      {graded ? (
        <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status" title="Graded">
          {detail.gradedBy ? `Graded by ${detail.gradedBy}` : 'Graded'}
          {detail.gradedAt ? ` on ${formatDateTime(detail.gradedAt)}` : ''}: final credit {formatCredit(detail.credit)}.
          The trainee has been notified.
        </Alert>
      ) : (
        <Button type="submit" loading={grade.isPending} style={{ alignSelf: 'flex-start' }}>
          Save grade
        </Button>
      )}
    </Stack>
  );
}

/** Admins: one written answer beside its prompt, its automatic checks and the model answer, graded by rubric. */
export default function ReviewPage() {
  const { reviewId = '' } = useParams();
  const id = Number(reviewId);
  const review = useReview(id);

  const back = (
    <Anchor component={Link} to={paths.reviews} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        Back to the review queue
      </Group>
    </Anchor>
  );

  if (review.isPending) {
    return (
      <Stack gap="lg">
        {back}
        <Title order={1}>Review</Title>
        <Skeleton height={320} radius="md" role="status" aria-busy="true" aria-label="Loading the submission" />
      </Stack>
    );
  }
  if (review.isError) {
    return (
      <Stack gap="lg">
        {back}
        <Title order={1}>Review</Title>
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {review.error.message}
        </Alert>
      </Stack>
    );
  }

  const detail = review.data;
  const trainee = `${detail.trainee.firstName} ${detail.trainee.lastName}`.trim() || detail.trainee.email;
  return (
    <Stack gap="lg">
      {back}
      <div>
        <Group gap="xs">
          <Title order={1}>{detail.stepTitle ?? detail.stepId}</Title>
          <Badge color={detail.status === 'pending' ? 'blue' : 'green'} variant="light">
            {detail.status === 'pending' ? 'Awaiting review' : 'Graded'}
          </Badge>
        </Group>
        <Text c="dimmed">
          {detail.scenarioName} · {trainee} ({detail.trainee.email}) · submitted {formatDateTime(detail.submittedAt)}
        </Text>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="review-prompt">
              <Title order={2} size="h4" id="review-prompt">
                Prompt
              </Title>
              <Text size="sm" mt="xs" className={classes.preWrap}>
                {detail.prompt}
              </Text>
            </Paper>
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="review-submission">
              <Group justify="space-between" gap="xs">
                <Title order={2} size="h4" id="review-submission">
                  Submission
                </Title>
                <Text size="sm" c={detail.wordCount > detail.maxWords ? 'red.8' : 'dimmed'} className="tabular-nums">
                  {detail.wordCount} / {detail.maxWords} words
                </Text>
              </Group>
              <Text size="sm" mt="xs" className={classes.preWrap} data-testid="review-text">
                {detail.text}
              </Text>
            </Paper>
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="review-checks">
              <Title order={2} size="h4" id="review-checks" mb="xs">
                Automatic checks
              </Title>
              <WriteCheckList checks={detail.checks} />
              <Text size="sm" mt="xs">
                Automatic share: {formatCredit(detail.autoCredit)} of {formatCredit(detail.autoWeight)}.
                {detail.hintCharged
                  ? ` The trainee opened the hint first: the rubric share is charged ${Math.round(detail.hintCost * 100)} % too.`
                  : ''}
              </Text>
            </Paper>
            <Paper withBorder radius="md" p="md" component="section" aria-labelledby="review-model">
              <Title order={2} size="h4" id="review-model">
                Model answer
              </Title>
              <Text size="sm" mt="xs" className={classes.preWrap}>
                {detail.modelAnswer}
              </Text>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="md" p="md" className={classes.sticky}>
            <GradeForm key={`${detail.id}-${detail.status}`} detail={detail} />
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
