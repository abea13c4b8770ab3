/**
 * The operation map's ACM entries (../operations.ts assembles the table).
 *
 * ACM: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html,
 * https://docs.aws.amazon.com/acm/latest/userguide/authen-apipermissions.html and the condition keys of
 * https://docs.aws.amazon.com/acm/latest/userguide/acm-conditions.html. RequestCertificate has no resource
 * type (Resource "*"); acm:DomainNames is the DomainName and the SubjectAlternativeNames, acm:ValidationMethod
 * defaults to EMAIL and acm:CertificateTransparencyLogging to ENABLED when the request names none (the
 * reference's key descriptions); acm:KeyAlgorithm, acm:Export, acm:CertificateAuthority and the tags are
 * the request's or known absent. acm:CertificateKeyPairOrigin is not supplied (its value for an API request
 * is not documented): a policy that reads it throws. Describe/DeleteCertificate are on the certificate ARN.
 */
import { required, requestTagKeys, type Input } from '../operation-arns';
import { optionalKeys, type Mapper } from './mapper';

const acmCertificate =
  (action: string): Mapper =>
  (input) => [{ action: `acm:${action}`, resource: required(input, 'CertificateArn', `acm:${action}`), context: {} }];

const acmRequestCertificate: Mapper = (input) => {
  const names = [required(input, 'DomainName', 'acm:RequestCertificate'), ...((input.SubjectAlternativeNames ?? []) as string[])];
  const options = (input.Options ?? {}) as Input;
  const tags = requestTagKeys(((input.Tags ?? []) as { Key: string; Value?: string }[]).map((tag) => [tag.Key, tag.Value ?? ''] as const));
  const optional = optionalKeys(
    { ...input, Export: options.Export },
    { 'acm:KeyAlgorithm': 'KeyAlgorithm', 'acm:Export': 'Export', 'acm:CertificateAuthority': 'CertificateAuthorityArn' },
  );
  return [
    {
      action: 'acm:RequestCertificate',
      resource: '*',
      context: {
        'acm:DomainNames': [...new Set(names)],
        'acm:ValidationMethod': typeof input.ValidationMethod === 'string' ? input.ValidationMethod : 'EMAIL',
        'acm:CertificateTransparencyLogging':
          typeof options.CertificateTransparencyLoggingPreference === 'string'
            ? options.CertificateTransparencyLoggingPreference
            : 'ENABLED',
        ...optional.context,
        ...tags.context,
      },
      absentKeys: [...(optional.absentKeys ?? []), ...tags.absentKeys],
    },
  ];
};

export const ACM_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'ACM.RequestCertificate': acmRequestCertificate,
  'ACM.DescribeCertificate': acmCertificate('DescribeCertificate'),
  'ACM.DeleteCertificate': acmCertificate('DeleteCertificate'),
  // No resource-level permissions: https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscertificatemanager.html
  'ACM.ListCertificates': () => [{ action: 'acm:ListCertificates', resource: '*', context: {} }],
};
