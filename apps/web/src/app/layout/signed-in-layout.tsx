import { RequireAuth } from '../guards';
import { AppLayout } from './app-layout';

/** The frame of every signed-in screen, loaded only once someone is past the sign-in page. */
export default function SignedInLayout() {
  return (
    <RequireAuth>
      <AppLayout />
    </RequireAuth>
  );
}
