/** bench/send/measure/tracked-opens.ts: the open pixel's URL found in a delivered message, quoted-printable or not. */
import { pixelUrl } from '#bench/send/measure/tracked-opens';

describe('the open pixel of a delivered message', () => {
  it('is found in plain html', () => {
    expect(pixelUrl('<p>hi</p><img src="http://127.0.0.1:3000/t/open/v1.abc_DEF-123" width="1" height="1" /></body>')).toBe(
      'http://127.0.0.1:3000/t/open/v1.abc_DEF-123',
    );
  });

  it('is found across quoted-printable soft line breaks and =3D', () => {
    const raw =
      'Content-Transfer-Encoding: quoted-printable\r\n\r\n<img src=3D"http://127.0.0.1:3000/t/op=\r\nen/v1.abc_DE=\r\nF-123" width=3D"1" />';
    expect(pixelUrl(raw)).toBe('http://127.0.0.1:3000/t/open/v1.abc_DEF-123');
  });

  it('is null when the message has none', () => {
    expect(pixelUrl('<p>no tracking</p><a href="http://127.0.0.1:3000/t/click/v1.x">link</a>')).toBeNull();
  });
});
