import { Alert, Anchor, Loader, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { RETURN_PARAM, safeReturnPath } from '../../../lib/return-to';
import { useSsoSecondStep } from '../api/link-account';
import { AuthFrame } from '../components/auth-frame';
import { SecondStepForm } from '../components/second-step-form';

/**
 * After a single sign-on to an account with a second factor (unless the server trusts the provider's own): the
 * same second step as after a password, then on to the page the sign-in started from.
 */
export default function ConfirmSignInPage() {
  const secondStep = useSsoSecondStep();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const destination = safeReturnPath(params.get(RETURN_PARAM)) ?? paths.redirect;

  return (
    <AuthFrame title="Confirm it's you">
      {secondStep.isPending && <Loader aria-label="Loading" />}
      {secondStep.isError && (
        <Stack>
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {secondStep.error.message}
          </Alert>
          <Anchor component={Link} to={paths.login} ta="center" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      )}
      {secondStep.data && (
        <SecondStepForm
          methods={secondStep.data.methods}
          onSignedIn={() => void navigate(destination, { replace: true })}
        />
      )}
    </AuthFrame>
  );
}
