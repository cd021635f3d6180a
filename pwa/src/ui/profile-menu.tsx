import { NavLink } from 'react-router-dom';
import { specLabels } from '@skyport/shared';
import { Modal } from './modal.tsx';
import { uiLabels } from './labels.ts';
import { navLinksFor, type NavLinkItem, type NavRole } from './navbar.tsx';

/** The spec's profile side menu by role (§2); every signed-in role also has Log Out. */
export function profileMenuFor(role: NavRole): NavLinkItem[] {
  switch (role) {
    case 'guest':
      return [];
    case 'customer':
      return [
        { to: '/profile', label: specLabels.accountInformation },
        { to: '/purchases', label: specLabels.myOrders },
      ];
    case 'airline':
      return [
        { to: '/profile', label: specLabels.accountInformation },
        { to: '/airlineProfile', label: specLabels.manageAirline },
      ];
    case 'super_admin':
      return [
        { to: '/profile', label: specLabels.accountInformation },
        { to: '/userManagement', label: specLabels.userManagement },
        { to: '/airlineManagement', label: specLabels.airlineManagement },
        { to: '/airlinePendingRequests', label: specLabels.airlinePendingRequests },
      ];
  }
}

export interface ProfileMenuProps {
  open: boolean;
  onClose: () => void;
  role: NavRole;
  name?: string | null;
  email?: string | null;
}

/**
 * A side sheet on the native dialog (focus stays in it, Escape closes it). On phones it also
 * carries the navbar's links, which do not fit beside the logo.
 */
export function ProfileMenu({ open, onClose, role, name, email }: ProfileMenuProps) {
  const profile = profileMenuFor(role);
  const navLinks = navLinksFor(role).filter((link) => link.to !== '/logout');
  const item = (link: NavLinkItem, className = '') => (
    <li key={link.to} className={className}>
      <NavLink
        to={link.to}
        onClick={onClose}
        className={({ isActive }) => (isActive ? 'menu-active' : '')}
      >
        {link.label}
      </NavLink>
    </li>
  );
  return (
    <Modal
      open={open}
      onClose={onClose}
      placement="end"
      boxClassName="w-72 max-w-[85vw]"
      title={name || email || uiLabels.appName}
      initialFocus="a"
    >
      {email && name ? <p className="mb-2 truncate text-sm text-base-content/80">{email}</p> : null}
      <ul className="menu w-full p-0" data-testid="profile-menu">
        {navLinks.map((link) => item(link, 'md:hidden'))}
        {profile.map((link) => item(link))}
        {role !== 'guest' ? (
          <li>
            <NavLink to="/logout" onClick={onClose}>
              {specLabels.logOut}
            </NavLink>
          </li>
        ) : null}
      </ul>
    </Modal>
  );
}
