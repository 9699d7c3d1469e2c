import { Avatar, type AvatarProps } from '@mantine/core';

interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'alt' | 'name'> {
  user: { firstName: string; lastName: string; photoUrl: string | null };
  /** Empty when a label next to it already names the person. */
  alt?: string;
}

/** A person's picture, round, or their initials when they have none. */
export function UserAvatar({ user, alt = '', ...props }: UserAvatarProps) {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Avatar
      src={user.photoUrl}
      alt={alt}
      name={name}
      color="accent"
      variant="light"
      imageProps={{ draggable: false }}
      {...props}
    />
  );
}
