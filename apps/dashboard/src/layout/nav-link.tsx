import { NavLink, type NavLinkProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type AnchorNavLinkProps = Omit<NavLinkProps, 'component'> & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof NavLinkProps>;

const AnchorNavLink = forwardRef<HTMLAnchorElement, AnchorNavLinkProps>((props, ref) => <NavLink component="a" ref={ref} {...props} />);
AnchorNavLink.displayName = 'AnchorNavLink';

/** Mantine's NavLink as a router link: `aria-current="page"` and the active style when on its page. */
export const RouterNavLink = createLink(AnchorNavLink);
