/** The partition model as printed: the busiest partition keys by shape, their units per email and ceilings. */
import { table } from '../stats';
import { PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, type PartitionModel } from './partition-model';

const rate = (value: number) => (Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: 0 }) : 'not exercised');

export function printPartitionModel(print: (line?: string) => void, title: string, model: PartitionModel, rows = 10): void {
  print(title);
  print(
    table(
      [
        'where',
        'partition key (keys touched)',
        'scope',
        'WRU per email',
        'RRU per email',
        `emails/s its busiest key allows (${PARTITION_WRITE_UNITS} WCU, ${PARTITION_READ_UNITS} RCU per partition)`,
      ],
      model.rows
        .filter((row) => row.scope !== 'item')
        .slice(0, rows)
        .map((row) => [
          row.where,
          `${row.shape} (${row.keys})`,
          row.scope,
          row.writesPerEmail.toFixed(2),
          row.readsPerEmail.toFixed(2),
          rate(row.ceiling),
        ]),
    ),
  );
  print(
    `Sustained sends per second the key design allows on AWS: one account ${rate(model.perAccount)}, one tenant ${rate(model.perTenant)}, one domain ${rate(model.perDomain)} (the lowest ceiling among keys named by an account, a tenant, a domain; keys of one email or address left out; split for heat not counted on; "not exercised": the phase touched no such key).`,
  );
}
