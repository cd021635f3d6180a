import { useState, type ReactNode } from 'react';
import { Navbar, type NavRole } from './navbar.tsx';
import { ProfileMenu } from './profile-menu.tsx';
import { Footer } from './footer.tsx';
import { Toaster } from './toast.tsx';
import { DialogHost } from './dialogs.tsx';
import { UpdatePrompt } from './update-prompt.tsx';
import { OfflineIndicator, SyncStatusBadge, type SyncStatus } from './status-badges.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { uiLabels } from './labels.ts';

export interface LayoutProps {
  role: NavRole;
  name?: string | null;
  email?: string | null;
  avatarUrl?: string | null;
  cartCount: number;
  /** Shown for signed-in users, whose personal data syncs. */
  syncStatus?: SyncStatus | null;
  /** Changes waiting to be sent, shown with the sync status (null: unknown). */
  unsentChanges?: number | null;
  /** Refused changes and conflicts the customer has not dealt with (the sync status says so). */
  changesNeedingAttention?: number;
  children: ReactNode;
}

/** The page frame: skip link, navbar by role, side menu, main region, footer, toasts, dialogs. */
export function Layout({
  role,
  name,
  email,
  avatarUrl,
  cartCount,
  syncStatus,
  unsentChanges,
  changesNeedingAttention = 0,
  children,
}: LayoutProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="btn btn-sm btn-primary sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50"
      >
        {uiLabels.skipToContent}
      </a>
      <Navbar
        role={role}
        cartCount={cartCount}
        avatarUrl={avatarUrl}
        onOpenMenu={() => setMenuOpen(true)}
        wideStatus={Boolean(syncStatus)}
        status={
          <>
            <OfflineIndicator besideSyncStatus={Boolean(syncStatus)} />
            {syncStatus ? (
              <SyncStatusBadge
                status={syncStatus}
                unsent={unsentChanges}
                attention={changesNeedingAttention}
                href="/changes"
              />
            ) : null}
          </>
        }
      />
      <ProfileMenu
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
        role={role}
        name={name}
        email={email}
      />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-3 py-4 outline-none sm:px-6 sm:py-6"
      >
        <ErrorBoundary>{children}</ErrorBoundary>
      </main>
      <Footer />
      <Toaster />
      <DialogHost />
      <UpdatePrompt />
    </div>
  );
}
