import { UserIcon } from './icons.tsx';

/**
 * A person's round picture (the image URL of their account, or their Google photo). Without one:
 * nothing, or a neutral circle with the person icon when `placeholder` is set.
 */
export function UserAvatar({
  image,
  size,
  ring = false,
  placeholder = false,
}: {
  image: string | null | undefined;
  /** The circle's width class, e.g. `w-14`. */
  size: string;
  /** A primary-coloured ring around the picture (the profile's own card). */
  ring?: boolean;
  placeholder?: boolean;
}) {
  if (image) {
    return (
      <div className="avatar">
        <div className={`${size} rounded-full${ring ? ' ring-2 ring-primary/40' : ''}`}>
          <img src={image} alt="" referrerPolicy="no-referrer" />
        </div>
      </div>
    );
  }
  if (!placeholder) return null;
  return (
    <div className="avatar avatar-placeholder">
      <div className={`${size} rounded-full bg-neutral text-neutral-content`}>
        <UserIcon className="size-1/2" />
      </div>
    </div>
  );
}
