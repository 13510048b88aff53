import { memberRoute } from './member-route.tsx';
import { paths } from '../../config/paths.ts';
import { EditProfile } from '../../features/edit-profile/components/edit-profile.tsx';

/** Edit Profile (/editprofile), docs/product.md#screens. */
export const Component = memberRoute(
  EditProfile,
  (t) => ({ title: t('Edit Profile'), back: paths.profile, message: t('Sign in to edit your profile.') }),
  'route',
);
