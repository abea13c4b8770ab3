/** Parsing published DKIM records and matching them against the domain's key. */
import { parseDkimTxt, publicKeyMatches } from '#shared/lib/dkim/txt-record';

const KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdx0XQe/Wy0RmU+Ip60ZqYSJhtWo2cOXWqrOnpwM9kQSgl/NJ4W6pk6yiZKwsJ1X1kEfiyrJGz34ugpNaTjXkBlgKsDpmEf0qPmzcnoGrXRNrv2ZbMMKmAW6m+3RpDKRYi+cb0lwtq5wIDAQAB';

test('parses a tag list, tolerant of whitespace and a trailing separator', () => {
  expect(parseDkimTxt(`v=DKIM1; k=rsa; p=${KEY}`)).toEqual({ v: 'DKIM1', k: 'rsa', p: KEY });
  expect(parseDkimTxt(`  v = DKIM1 ;k=rsa;\tt=y ; p = ${KEY} ;  `)).toEqual({ v: 'DKIM1', k: 'rsa', t: 'y', p: KEY });
  expect(parseDkimTxt('p=')).toEqual({ p: '' });
  expect(parseDkimTxt('')).toEqual({});
  expect(parseDkimTxt('n=notes with = sign; p=abc')).toEqual({ n: 'notes with = sign', p: 'abc' });
});

test('whitespace inside p= (a folded key) is removed', () => {
  const folded = `v=DKIM1; k=rsa; p=${KEY.slice(0, 100)} ${KEY.slice(100, 200)}\r\n\t${KEY.slice(200)}`;
  expect(parseDkimTxt(folded)?.p).toBe(KEY);
});

test('a malformed tag list is null: a part without "=", a bad tag name, a duplicate tag', () => {
  expect(parseDkimTxt(`v=DKIM1; k=rsa; ${KEY}`)).toBeNull();
  expect(parseDkimTxt('=x; p=abc')).toBeNull();
  expect(parseDkimTxt('1a=x; p=abc')).toBeNull();
  expect(parseDkimTxt('p=abc; p=def')).toBeNull();
});

test('tag names are case-sensitive', () => {
  expect(parseDkimTxt(`V=DKIM1; P=${KEY}`)).toEqual({ V: 'DKIM1', P: KEY });
});

describe('publicKeyMatches', () => {
  test('the exact key, whatever the spacing', () => {
    expect(publicKeyMatches(`v=DKIM1; k=rsa; p=${KEY}`, KEY)).toBe(true);
    expect(publicKeyMatches(`p=${KEY}`, KEY)).toBe(true);
    expect(publicKeyMatches(`v=DKIM1;k=rsa;p=${KEY.slice(0, 200)} ${KEY.slice(200)}`, KEY)).toBe(true);
    expect(publicKeyMatches(`v=DKIM1; p=${KEY}`, `${KEY.slice(0, 64)}\n${KEY.slice(64)}`)).toBe(true);
  });

  test('any other key material does not match', () => {
    expect(publicKeyMatches(`v=DKIM1; k=rsa; p=${KEY.slice(0, -2)}`, KEY)).toBe(false); // truncated
    expect(publicKeyMatches(`v=DKIM1; k=rsa; p=${KEY}AB`, KEY)).toBe(false);
    expect(publicKeyMatches(`v=DKIM1; k=rsa; p=${KEY.replace('u1SU', 'u1SV')}`, KEY)).toBe(false);
    expect(publicKeyMatches(`v=DKIM1; k=rsa; p=${KEY.toLowerCase()}`, KEY)).toBe(false);
    expect(publicKeyMatches('v=DKIM1; k=rsa; p=', KEY)).toBe(false); // revoked
    expect(publicKeyMatches('v=DKIM1; k=rsa', KEY)).toBe(false);
    expect(publicKeyMatches('p=', '')).toBe(false);
  });

  test('a record verifiers would reject never matches', () => {
    expect(publicKeyMatches(`v=DKIM2; k=rsa; p=${KEY}`, KEY)).toBe(false);
    expect(publicKeyMatches(`v=DKIM1; k=ed25519; p=${KEY}`, KEY)).toBe(false);
    expect(publicKeyMatches(`v=DKIM1; p=${KEY}; p=${KEY}`, KEY)).toBe(false);
    expect(publicKeyMatches(`"v=DKIM1; k=rsa; p=${KEY}"`, KEY)).toBe(false); // quotes pasted into the record
  });

  test('k=RSA is accepted', () => {
    expect(publicKeyMatches(`v=DKIM1; k=RSA; p=${KEY}`, KEY)).toBe(true);
  });
});
