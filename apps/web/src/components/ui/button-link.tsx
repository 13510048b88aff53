import { Link, type LinkProps } from 'react-router';
import { buttonClass, type Size, type Variant } from './button.tsx';

export interface ButtonLinkProps extends LinkProps {
  variant?: Variant;
  size?: Size;
  block?: boolean;
}

/**
 * The one link that looks like a button: it navigates, so it is a link for the
 * keyboard and for screen readers, with the Button's look.
 */
export function ButtonLink({
  variant = 'primary',
  size = 'md',
  block = false,
  className = '',
  ...rest
}: ButtonLinkProps) {
  return (
    <Link className={buttonClass(variant, block, typeof className === 'string' ? className : '', size)} {...rest} />
  );
}
