// Mantine's Button and Anchor as router links (typed routes, client-side navigation): what goes
// somewhere is a link, whatever it looks like.
import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';

type AnchorButtonProps = ButtonProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof ButtonProps>;
type AnchorLinkProps = AnchorProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, keyof AnchorProps>;

const AnchorButton = forwardRef<HTMLAnchorElement, AnchorButtonProps>((props, ref) => <Button component="a" ref={ref} {...props} />);
AnchorButton.displayName = 'AnchorButton';
const AnchorLink = forwardRef<HTMLAnchorElement, AnchorLinkProps>((props, ref) => <Anchor component="a" ref={ref} {...props} />);
AnchorLink.displayName = 'BillingAnchorLink';

export const ButtonLink = createLink(AnchorButton);
export const AnchorRouterLink = createLink(AnchorLink);
