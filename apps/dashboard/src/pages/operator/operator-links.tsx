// Mantine's Anchor as a router link (typed routes, client-side navigation).
import { Anchor, type AnchorProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type AnchorLinkProps = AnchorProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof AnchorProps>;
const OperatorAnchor = forwardRef<HTMLAnchorElement, AnchorLinkProps>((props, ref) => <Anchor component="a" ref={ref} {...props} />);
OperatorAnchor.displayName = 'OperatorAnchor';

export const OperatorLink = createLink(OperatorAnchor);
