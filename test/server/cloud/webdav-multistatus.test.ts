/**
 * PROPFIND answers as real servers spell them: Nextcloud's `d:`/`oc:` prefixes with a 404 propstat for the
 * properties it lacks, Apache mod_dav's `lp1:` live properties, a default namespace, entities in hrefs; and
 * what is refused: a DOCTYPE (entity expansion), a document that is not a multistatus, broken XML.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagVersion, parseMultistatus } from '../../../server/src/adapters/cloud/webdav/multistatus.ts';

const NEXTCLOUD = `<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 <d:response>
  <d:href>/remote.php/dav/files/anna/Photos/</d:href>
  <d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype><d:getetag>&quot;65a1b2c3d4e5f&quot;</d:getetag>
   <d:getlastmodified>Sat, 06 Jan 2024 09:30:00 GMT</d:getlastmodified></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>
  <d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
 </d:response>
 <d:response>
  <d:href>/remote.php/dav/files/anna/Photos/Caf%c3%a9%20(1).jpg</d:href>
  <d:propstat><d:prop><d:resourcetype/><d:getcontentlength>2048</d:getcontentlength><d:getetag>"abc123"</d:getetag>
   <d:getlastmodified>Sun, 07 Jan 2024 10:00:00 GMT</d:getlastmodified><oc:getetag>"not-the-dav-one"</oc:getetag></d:prop>
   <d:status>HTTP/1.1 200 OK</d:status></d:propstat>
 </d:response>
</d:multistatus>`;

const APACHE = `<?xml version="1.0" encoding="utf-8"?>
<D:multistatus xmlns:D="DAV:" xmlns:ns0="DAV:">
<D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
<D:href>/webdav/a&amp;b.jpg</D:href>
<D:propstat><D:prop><lp1:resourcetype/><lp1:getcontentlength>17</lp1:getcontentlength>
<lp1:getlastmodified>Mon, 01 Jul 2024 12:00:00 GMT</lp1:getlastmodified><lp1:getetag>W/"11-61c2a"</lp1:getetag></D:prop>
<D:status>HTTP/1.1 200 OK</D:status></D:propstat>
</D:response>
</D:multistatus>`;

test('Nextcloud: DAV properties only (not oc:getetag), a 404 propstat ignored, entities decoded', () => {
  const [folder, file] = parseMultistatus(NEXTCLOUD);
  assert.deepEqual(folder, {
    href: '/remote.php/dav/files/anna/Photos/',
    collection: true,
    etag: '"65a1b2c3d4e5f"',
    size: null,
    modified: Date.parse('2024-01-06T09:30:00Z'),
    failedStatus: null,
  });
  assert.deepEqual(file, {
    href: '/remote.php/dav/files/anna/Photos/Caf%c3%a9%20(1).jpg',
    collection: false,
    etag: '"abc123"',
    size: 2048,
    modified: Date.parse('2024-01-07T10:00:00Z'),
    failedStatus: null,
  });
});

test('Apache mod_dav: properties under another prefix for DAV:, a weak ETag', () => {
  const [file] = parseMultistatus(APACHE);
  assert.equal(file!.href, '/webdav/a&b.jpg');
  assert.equal(file!.size, 17);
  assert.equal(file!.etag, 'W/"11-61c2a"');
  assert.equal(etagVersion(file!.etag!), '11-61c2a');
});

test('a default namespace, CDATA and a response-level failure status', () => {
  const [entry] = parseMultistatus(
    '<multistatus xmlns="DAV:"><response><href><![CDATA[/x/y.jpg]]></href><status>HTTP/1.1 423 Locked</status></response></multistatus>',
  );
  assert.equal(entry!.href, '/x/y.jpg');
  assert.equal(entry!.failedStatus, 423);
});

test('a DOCTYPE, another root, an undeclared prefix or broken XML are refused', () => {
  const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><d:multistatus xmlns:d="DAV:">&lol;</d:multistatus>';
  assert.throws(() => parseMultistatus(bomb), /DOCTYPE/);
  assert.throws(() => parseMultistatus('<html><body>Welcome</body></html>'), /not a DAV multistatus/);
  assert.throws(() => parseMultistatus('<d:multistatus><d:response/></d:multistatus>'), /undeclared prefix/);
  assert.throws(() => parseMultistatus('<d:multistatus xmlns:d="DAV:"><d:response>'), /unclosed/);
  assert.throws(() => parseMultistatus('<d:multistatus xmlns:d="DAV:"></d:response>'), /unexpected end tag/);
});
