/**
 * A template's tracking switches (shared/domain/templates/template.ts; docs/tracking.md, "Per message"): a
 * template stored before templates carried them reads as null (the domain decides) and is not "changed" by
 * that; a PATCH sets them or puts them back to null; a change of them is an unpublished change.
 */
import { contentOf, hasUnpublishedChanges, toPublicTemplate, withChanges, type Template } from '#shared/domain/templates/template';

const NOW = '2026-11-28T10:00:00.000Z';
const draft: Template = {
  id: 'tpl_1',
  account_id: 'acc_1',
  alias: 'reset',
  name: 'Reset',
  subject: 'Reset',
  html: null,
  text: 'Reset it',
  from: null,
  reply_to: [],
  category: 'transactional',
  unsubscribe_enabled: false,
  variables: [],
  revision: 1,
  published: null,
  created_at: NOW,
  updated_at: NOW,
};
/** As stored before templates carried tracking: no track_opens or track_clicks at all. */
const older: Template = { ...draft, published: { ...contentOf(draft), version: 1, published_at: NOW } };
delete (older.published as Partial<Template>).track_opens;
delete (older.published as Partial<Template>).track_clicks;

describe("a template's tracking switches", () => {
  it('reads an older template (none stored) as null: the domain decides, and nothing is unpublished', () => {
    expect(contentOf(older.published!)).toMatchObject({ track_opens: null, track_clicks: null });
    expect(toPublicTemplate(older)).toMatchObject({ track_opens: null, track_clicks: null });
    expect(hasUnpublishedChanges(older)).toBe(false);
  });

  it('sets them, keeps them when a PATCH leaves them out, and puts them back to null; each change is unpublished', () => {
    const off = withChanges(older, { track_opens: false, track_clicks: false });
    expect(off).toMatchObject({ track_opens: false, track_clicks: false });
    expect(hasUnpublishedChanges(off)).toBe(true);
    expect(withChanges(off, { subject: 'Reset now' })).toMatchObject({ track_opens: false, track_clicks: false });
    const back = withChanges(off, { track_opens: null });
    expect(back).toMatchObject({ track_opens: null, track_clicks: false });
  });
});
