import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { specLabels } from '@skyport/shared';
import { uiLabels } from './labels.ts';
import { ticketLabels } from './ticket-labels.ts';
import { CartIcon, PlaneIcon, UserIcon } from './icons.tsx';
import { ThemeSwitch } from './theme-switch.tsx';

export type NavRole = 'guest' | 'customer' | 'airline' | 'super_admin';

export interface NavLinkItem {
  to: string;
  label: string;
}

/** The spec's navigation by role (§2), without the cart and the profile picture. */
export function navLinksFor(role: NavRole): NavLinkItem[] {
  // Not in the spec: anyone may check a signed e-ticket (issue 17), so every role has the link.
  const verifyTicket = { to: '/verify-ticket', label: ticketLabels.verifyNav };
  const links = specNavLinksFor(role);
  const logOut = links.findIndex((link) => link.to === '/logout');
  return logOut === -1
    ? [...links, verifyTicket]
    : [...links.slice(0, logOut), verifyTicket, ...links.slice(logOut)];
}

function specNavLinksFor(role: NavRole): NavLinkItem[] {
  switch (role) {
    case 'guest':
      return [
        { to: '/favs', label: specLabels.favs },
        { to: '/login', label: specLabels.logIn },
        { to: '/register', label: specLabels.signIn },
      ];
    case 'customer':
      return [
        { to: '/favs', label: specLabels.favs },
        { to: '/logout', label: specLabels.logOut },
      ];
    case 'airline':
      return [
        { to: '/catalog', label: specLabels.catalog },
        { to: '/sales', label: specLabels.sales },
        { to: '/logout', label: specLabels.logOut },
      ];
    case 'super_admin':
      return [
        { to: '/business', label: specLabels.business },
        { to: '/logout', label: specLabels.logOut },
      ];
  }
}

export interface NavbarProps {
  role: NavRole;
  /** Tickets in the cart (guests and customers only). */
  cartCount: number;
  /** The signed-in user's picture, if any. */
  avatarUrl?: string | null;
  onOpenMenu: () => void;
  /** Status badges (offline, sync) shown before the actions. */
  status?: ReactNode;
  /**
   * The status takes room on a phone (the sync status with its words and count): the brand then
   * shows its icon only there, so that the navbar keeps to one line on a 360 px screen.
   */
  wideStatus?: boolean;
}

export function Navbar({
  role,
  cartCount,
  avatarUrl,
  onOpenMenu,
  status,
  wideStatus = false,
}: NavbarProps) {
  const links = navLinksFor(role);
  const hasCart = role === 'guest' || role === 'customer';
  return (
    <header className="navbar sticky top-0 z-40 gap-1 border-b border-base-300 bg-base-100 px-2 sm:px-4">
      <div className="navbar-start w-auto">
        <Link
          to="/"
          className="btn btn-ghost gap-2 px-2 text-xl font-bold text-primary"
          aria-label={`${uiLabels.appName}, ${uiLabels.home}`}
          data-testid="brand"
        >
          <PlaneIcon className="size-6" />
          <span className={wideStatus ? 'max-sm:hidden' : undefined}>{uiLabels.appName}</span>
        </Link>
      </div>
      <nav className="navbar-end w-auto flex-1 gap-1" aria-label={uiLabels.appName}>
        {status}
        <ul className="menu menu-horizontal hidden gap-1 px-1 md:flex">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        {hasCart ? (
          <Link
            to="/cart"
            className="btn btn-ghost btn-circle"
            aria-label={uiLabels.cartWithCount(cartCount)}
            data-testid="cart-link"
          >
            <div className="indicator">
              <CartIcon className="size-6" />
              <span
                className="badge badge-sm badge-primary indicator-item"
                aria-hidden="true"
                data-testid="cart-count"
              >
                {cartCount}
              </span>
            </div>
          </Link>
        ) : null}
        <ThemeSwitch />
        <button
          type="button"
          className={`btn btn-ghost btn-circle avatar ${role === 'guest' ? 'md:hidden' : ''}`}
          aria-label={uiLabels.openProfileMenu}
          aria-haspopup="dialog"
          onClick={onOpenMenu}
          data-testid="profile-menu-button"
        >
          {avatarUrl ? (
            <div className="w-9 rounded-full ring-2 ring-primary/40">
              <img src={avatarUrl} alt="" referrerPolicy="no-referrer" />
            </div>
          ) : (
            <UserIcon className="size-6" />
          )}
        </button>
      </nav>
    </header>
  );
}
