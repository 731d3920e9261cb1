/**
 * The token really goes through the OS keychain (Secret Service on Linux:
 * gnome-keyring in a D-Bus session). CI runs the tests under
 * `dbus-run-session` with an unlocked gnome-keyring; without a session bus
 * there is no keychain to test, and the test says so instead of failing —
 * except where QUIRE_REQUIRE_KEYCHAIN=1 (CI), where a missing keychain fails.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeytarTokenStore } from '../../src/main/core/secrets';

const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
const required = process.env.QUIRE_REQUIRE_KEYCHAIN === '1';
if (!bus && !required) {
  console.warn(
    'keychain test skipped: no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset). Run it under ' +
      "`dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets; npx vitest run test/secrets/keychain.test.ts'`.",
  );
}

describe.skipIf(!bus && !required)('OS keychain token store', () => {
  it('stores, reads and deletes a token', async () => {
    const store = new KeytarTokenStore();
    const apiUrl = `https://keychain-test-${randomUUID()}.example.com`;
    const token = `tok_${randomUUID()}`;
    expect(await store.get(apiUrl)).toBeNull();
    await store.set(apiUrl, token);
    expect(await store.get(apiUrl)).toBe(token);
    expect(await store.get(`${apiUrl}/v1/`)).toBe(token);
    await store.set(apiUrl, `${token}-2`);
    expect(await store.get(apiUrl)).toBe(`${token}-2`);
    expect(await store.delete(apiUrl)).toBe(true);
    expect(await store.get(apiUrl)).toBeNull();
    expect(await store.delete(apiUrl)).toBe(false);
  });
});
