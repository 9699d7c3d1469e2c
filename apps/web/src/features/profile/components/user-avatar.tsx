import { Avatar, type AvatarProps } from '@mantine/core';

interface AvatarUser {
  firstName: string;
  lastName: string;
  photoUrl: string | null;
}

interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'alt' | 'name'> {
  user: AvatarUser;
  /** Empty when a label next to it already names the person. */
  alt?: string;
}

const fullName = (user: AvatarUser) => `${user.firstName} ${user.lastName}`.trim();

/**
 * The letters an avatar shows when the person has no picture ("Grace Hopper": "GH"), or '' when it shows the
 * picture. A link drawn with the avatar names itself with them too, so its name holds what is written on it.
 */
export function avatarInitials(user: AvatarUser): string {
  if (user.photoUrl) return '';
  const words = fullName(user).split(' ');
  const letters =
    words.length === 1
      ? words[0]!.slice(0, 2)
      : words
          .map((word) => word[0] ?? '')
          .slice(0, 2)
          .join('');
  return letters.toUpperCase();
}

/** A person's picture, round, or their initials when they have none. */
export function UserAvatar({ user, alt = '', ...props }: UserAvatarProps) {
  const initials = avatarInitials(user);
  return (
    <Avatar
      src={user.photoUrl}
      alt={alt}
      name={fullName(user)}
      color="accent"
      variant="light"
      imageProps={{ draggable: false }}
      {...props}
    >
      {initials || undefined}
    </Avatar>
  );
}
