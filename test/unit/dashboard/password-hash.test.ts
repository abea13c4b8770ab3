/** Dashboard password hashing (shared/domain/dashboard/password-hash.ts): scrypt, parameters stored with the hash, constant-time verify, rehash when weaker. */
import { loadConfig } from '#shared/config/config';
import {
  hashPassword,
  needsRehash,
  parsePasswordHash,
  parseScryptParams,
  PASSWORD_HASH_PARAMS,
  verifyPassword,
} from '#shared/domain/dashboard/password-hash';
import { buildTeam } from '#shared/services/team';
import { generatePassword, newPasswordSchema } from '#shared/domain/dashboard/password-policy';

describe('password hashing', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('stores the scrypt parameters, a 16-byte salt and a 32-byte key with the hash (PHC string)', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(PASSWORD_HASH_PARAMS).toEqual({ ln: 15, r: 8, p: 3 });
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    const parsed = parsePasswordHash(hash)!;
    expect(parsed.params).toEqual(PASSWORD_HASH_PARAMS);
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.key).toHaveLength(32);
  });

  it('salts each hash: the same password hashes differently', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery staple'), hashPassword('correct horse battery staple')]);
    expect(a).not.toBe(b);
  });

  it('verifies with the parameters stored in the hash, and asks for a rehash when they are weaker than today', async () => {
    const weak = await hashPassword('correct horse battery staple', { ln: 10, r: 8, p: 1 });
    expect(weak.startsWith('$scrypt$ln=10,r=8,p=1$')).toBe(true);
    expect(await verifyPassword('correct horse battery staple', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('correct horse battery staple'))).toBe(false);
    // Stronger than today is kept.
    expect(needsRehash(await hashPassword('x', { ln: 15, r: 8, p: 4 }))).toBe(false);
  });

  it('compares after NFC normalisation: the same text typed as composed or decomposed characters', async () => {
    const hash = await hashPassword('crème brûlée à la maison', { ln: 10, r: 8, p: 1 });
    expect(await verifyPassword('cre\u0300me bru\u0302le\u0301e a\u0300 la maison', hash)).toBe(true);
  });

  it('refuses unreadable hashes and parameters that would allocate too much memory', async () => {
    expect(await verifyPassword('x', 'not a hash')).toBe(false);
    expect(await verifyPassword('x', '$scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(
      false,
    );
    expect(parsePasswordHash('$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA')).toBeNull();
    expect(needsRehash('not a hash')).toBe(true);
  });
});

describe('password policy', () => {
  it('asks for at least 12 characters (counted after NFC, any characters) and at most 256', () => {
    expect(newPasswordSchema.safeParse('short pass1').success).toBe(false);
    expect(newPasswordSchema.safeParse('twelve chars').success).toBe(true);
    expect(newPasswordSchema.safeParse('ééééééééééé').success).toBe(false);
    expect(newPasswordSchema.safeParse('x'.repeat(256)).success).toBe(true);
    expect(newPasswordSchema.safeParse('x'.repeat(257)).success).toBe(false);
  });

  it('generates passwords the policy accepts, different each time', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(newPasswordSchema.safeParse(a).success).toBe(true);
    expect(generatePassword()).not.toBe(a);
  });
});

describe("PASSWORD_HASH_COST, the test stacks' knob (shared/config/config.ts)", () => {
  const teamWith = (env: Record<string, string>) => {
    const config = loadConfig({ TABLE_NAME: 't', ...env });
    return buildTeam({ table: { client: {} as never, name: 't' }, config });
  };

  it("reads parameters written as a PHC string writes them, within a stored hash's bounds", () => {
    expect(parseScryptParams('ln=10,r=8,p=1')).toEqual({ ln: 10, r: 8, p: 1 });
    expect(parseScryptParams(' ln=15,r=8,p=3 ')).toEqual(PASSWORD_HASH_PARAMS);
    for (const bad of ['', 'ln=10', 'ln=0,r=8,p=1', 'ln=21,r=8,p=1', 'ln=10,r=17,p=1', 'ln=10,r=8,p=0', 'N=1024,r=8,p=1', 'ln=10;r=8;p=1'])
      expect(parseScryptParams(bad)).toBeNull();
  });

  it('hashes new passwords with its parameters; unset or unreadable, with the real ones', async () => {
    const cheap = await teamWith({ PASSWORD_HASH_COST: 'ln=10,r=8,p=1' }).passwords.hash('correct horse battery staple');
    expect(cheap.startsWith('$scrypt$ln=10,r=8,p=1$')).toBe(true);
    expect(loadConfig({}).passwordHashParams).toEqual(PASSWORD_HASH_PARAMS);
    expect(loadConfig({ PASSWORD_HASH_COST: 'ln=99,r=8,p=1' }).passwordHashParams).toEqual(PASSWORD_HASH_PARAMS);
    // A stack with the knob checks a hash made at the real parameters and does not ask to weaken it.
    const team = teamWith({ PASSWORD_HASH_COST: 'ln=10,r=8,p=1' });
    const real = await hashPassword('correct horse battery staple');
    expect(await team.passwords.verify('correct horse battery staple', real)).toBe(true);
    expect(team.passwords.needsRehash(real)).toBe(false);
  });
});
