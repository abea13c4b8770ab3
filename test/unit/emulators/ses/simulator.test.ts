import { outcomeFor, planOutcomes, plannedEvents } from '../../../../localstack/emulators/ses/simulator';

describe('outcomeFor', () => {
  it.each([
    ['success@simulator.amazonses.com', 'delivery'],
    ['success+label@simulator.amazonses.com', 'delivery'],
    ['SUCCESS@Simulator.AmazonSES.com', 'delivery'],
    ['bounce@simulator.amazonses.com', 'bounce'],
    ['bounce+x-1@simulator.amazonses.com', 'bounce'],
    ['complaint@simulator.amazonses.com', 'complaint'],
    ['complaint+abc@simulator.amazonses.com', 'complaint'],
    ['suppressionlist@simulator.amazonses.com', 'suppressed'],
    ['ooto@simulator.amazonses.com', 'delivery'],
    ['bounce@example.com', 'delivery'],
    ['someone@example.org', 'delivery'],
    ['not-an-address', 'delivery'],
  ])('%s -> %s', (address, outcome) => {
    expect(outcomeFor(address)).toBe(outcome);
  });
});

describe('planOutcomes / plannedEvents', () => {
  it('groups recipients per outcome, keeping order; complaints are delivered first', () => {
    const recipients = [
      'a@example.com',
      'bounce@simulator.amazonses.com',
      'complaint@simulator.amazonses.com',
      'suppressionlist@simulator.amazonses.com',
      'bounce+2@simulator.amazonses.com',
    ];
    expect(planOutcomes(recipients)).toEqual({
      delivered: ['a@example.com', 'complaint@simulator.amazonses.com'],
      bounced: [
        { subType: 'General', recipients: ['bounce@simulator.amazonses.com', 'bounce+2@simulator.amazonses.com'] },
        { subType: 'OnAccountSuppressionList', recipients: ['suppressionlist@simulator.amazonses.com'] },
      ],
      complained: ['complaint@simulator.amazonses.com'],
    });
    expect(plannedEvents(recipients).map((e) => e.type)).toEqual(['Send', 'Delivery', 'Bounce', 'Bounce', 'Complaint']);
  });

  it('always starts with Send', () => {
    expect(plannedEvents(['success@simulator.amazonses.com'])).toEqual([
      { type: 'Send' },
      { type: 'Delivery', recipients: ['success@simulator.amazonses.com'] },
    ]);
    expect(plannedEvents(['bounce@simulator.amazonses.com']).map((e) => e.type)).toEqual(['Send', 'Bounce']);
    expect(plannedEvents(['complaint@simulator.amazonses.com']).map((e) => e.type)).toEqual(['Send', 'Delivery', 'Complaint']);
  });
});
