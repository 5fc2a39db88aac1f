import { SecurityProfile } from '../src';
import { PROFILE_SETTINGS } from '../src/profiles/profile-settings';

/**
 * The rules between profiles and other settings are fields of the profile settings too; the tests of the context
 * reader, the factory and the build server check each one's effect. Here: the table the README's "Security profiles"
 * rows state.
 */
test.each([
  [SecurityProfile.DEV,
    { tlsRequired: false, signInTlsRequired: false, regionRequired: false, alarmRecipientRequired: false, fullAuditTrail: false }],
  [SecurityProfile.STAGING,
    { tlsRequired: false, signInTlsRequired: true, regionRequired: true, alarmRecipientRequired: false, fullAuditTrail: false }],
  [SecurityProfile.PRODUCTION,
    { tlsRequired: true, signInTlsRequired: true, regionRequired: true, alarmRecipientRequired: true, fullAuditTrail: true }],
])('%s: TLS, sign-in over TLS, region, alarm recipient and audit history', (profile, expected) => {
  expect(PROFILE_SETTINGS[profile]).toMatchObject(expected);
});
