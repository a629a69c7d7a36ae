import { Anchor, type AnchorProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type AnchorLinkProps = AnchorProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof AnchorProps>;

const AnchorLink = forwardRef<HTMLAnchorElement, AnchorLinkProps>((props, ref) => <Anchor component="a" ref={ref} {...props} />);
AnchorLink.displayName = 'AnchorLink';

/** Mantine's Anchor as a router link (typed routes and params, client-side navigation). */
export const RouterAnchor = createLink(AnchorLink);
