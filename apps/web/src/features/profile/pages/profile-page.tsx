import { PROFILE_MESSAGES, profilePhotoProblem, updateProfileInputSchema, type Profile } from '@tradecraft/shared';
import {
  Alert,
  Button,
  Center,
  FileButton,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconPhotoUp } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useFormFields } from '../../../ui/use-form-fields';
import { useProfile } from '../api/get-profile';
import { useUpdateProfile } from '../api/update-profile';
import { useUploadProfilePhoto } from '../api/upload-profile-photo';
import { UserAvatar } from '../components/user-avatar';

/** 'Profile updated successfully!' stays for 3 seconds. */
const SAVED_MESSAGE_MS = 3000;
const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';

function ProfilePhoto({ profile }: { profile: Profile }) {
  const upload = useUploadProfilePhoto();
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (file: File | null) => {
    if (!file) return;
    upload.reset();
    const refused = profilePhotoProblem(file);
    setProblem(refused);
    if (!refused) upload.mutate(file);
  };

  const error = problem ?? upload.error?.message ?? null;
  return (
    <Stack align="center" gap="sm">
      <UserAvatar user={profile} size={144} alt="Your profile picture" data-testid="profile-photo" />
      <FileButton onChange={choose} accept={ACCEPT}>
        {(props) => (
          <Button
            {...props}
            variant="light"
            leftSection={<IconPhotoUp size={18} aria-hidden />}
            loading={upload.isPending}
          >
            Upload picture
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed" ta="center">
        PNG, JPEG, WebP or GIF, at most 2 MB. We keep a copy of at most 512 px, without its metadata.
      </Text>
      {error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" w="100%">
          {error}
        </Alert>
      )}
      {upload.isSuccess && !error && (
        <Text size="sm" c="green" role="status">
          {PROFILE_MESSAGES.photoSaved}
        </Text>
      )}
    </Stack>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { values, setValues, fieldErrors, set, validate } = useFormFields({
    firstName: profile.firstName,
    lastName: profile.lastName,
    designation: profile.designation,
  });
  const [saved, setSaved] = useState(false);
  const update = useUpdateProfile();

  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => setSaved(false), SAVED_MESSAGE_MS);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const input = validate(updateProfileInputSchema);
    if (!input) return;
    update.mutate(input, {
      onSuccess: (next) => {
        setValues({ firstName: next.firstName, lastName: next.lastName, designation: next.designation });
        setSaved(true);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Profile details">
      <Stack>
        {update.error && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {update.error.message}
          </Alert>
        )}
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="First Name"
              required
              autoComplete="given-name"
              value={values.firstName}
              onChange={set('firstName')}
              error={fieldErrors.firstName}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="Last Name"
              required
              autoComplete="family-name"
              value={values.lastName}
              onChange={set('lastName')}
              error={fieldErrors.lastName}
            />
          </Grid.Col>
        </Grid>
        <TextInput
          label="Designation"
          description="Optional, e.g. SOC Analyst L1"
          autoComplete="organization-title"
          value={values.designation}
          onChange={set('designation')}
          error={fieldErrors.designation}
        />
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput label="Email" value={profile.email} readOnly variant="filled" description="Your sign-in name" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              label="User Role"
              value={profile.role.charAt(0).toUpperCase() + profile.role.slice(1)}
              readOnly
              variant="filled"
              description="Set by an administrator"
            />
          </Grid.Col>
        </Grid>
        <Group justify="flex-end" gap="md">
          {saved && (
            <Text c="green" size="sm" role="status">
              <IconCircleCheck size={16} aria-hidden style={{ verticalAlign: 'text-bottom', marginRight: 4 }} />
              {PROFILE_MESSAGES.saved}
            </Text>
          )}
          <Button type="submit" loading={update.isPending}>
            Save Profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function ProfilePage() {
  const profile = useProfile();

  return (
    <Stack gap="lg" maw={900}>
      <div>
        <Title order={1}>My Profile</Title>
        <Text c="dimmed">Your name, designation and picture, as the rest of the range sees them.</Text>
      </div>
      {profile.isPending ? (
        <Paper withBorder p="lg" radius="md" role="status" aria-busy="true" aria-label="Loading your profile">
          <Grid>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Center>
                <Skeleton circle height={144} />
              </Center>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack>
                <Skeleton height={56} />
                <Skeleton height={56} />
                <Skeleton height={56} />
              </Stack>
            </Grid.Col>
          </Grid>
        </Paper>
      ) : profile.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Your profile could not be loaded">
          <Stack align="flex-start" gap="xs">
            <Text size="sm">{profile.error.message}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void profile.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Grid gap="xl">
            <Grid.Col span={{ base: 12, md: 4 }}>
              <ProfilePhoto profile={profile.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }}>
              <ProfileForm key={profile.data.id} profile={profile.data} />
            </Grid.Col>
          </Grid>
        </Paper>
      )}
    </Stack>
  );
}
