import { useState } from 'react';

/** An airline's logo, or its initials in a circle when there is none or it fails to load. */
export function AirlineLogo({
  src,
  name,
  size = 'size-11',
}: {
  src: string;
  name: string;
  size?: string;
}) {
  const [failed, setFailed] = useState(false);
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  if (!src || failed) {
    return (
      <div className="avatar avatar-placeholder" aria-hidden="true">
        <div className={`${size} rounded-full bg-neutral text-neutral-content`}>
          <span className="text-sm font-semibold">{initials}</span>
        </div>
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      width={44}
      height={44}
      loading="lazy"
      decoding="async"
      className={`${size} shrink-0 rounded-full bg-base-200 object-contain p-0.5`}
      onError={() => setFailed(true)}
    />
  );
}
