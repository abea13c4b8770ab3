/**
 * The single-table key schema (documented in docs/architecture.md, "Data"). Every key is built here.
 *
 *   Account            PK ACCOUNT#<acc>          SK ACCOUNT
 *   Account email      PK ACCOUNTEMAIL#<email>   SK ACCOUNTEMAIL          (uniqueness of the owner email)
 *   API key (listing)  PK ACCOUNT#<acc>          SK APIKEY#<key>
 *   API key (lookup)   PK APIKEYHASH#<sha256>    SK APIKEYHASH
 *   Email              PK EMAIL#<msg>            SK EMAIL   GSI1PK ACCOUNT#<acc>#EMAILS#<shard>  GSI1SK <msg>
 */
export const keys = {
  account: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: 'ACCOUNT' }),
  accountEmail: (email: string) => ({ PK: `ACCOUNTEMAIL#${email.toLowerCase()}`, SK: 'ACCOUNTEMAIL' }),
  apiKey: (accountId: string, keyId: string) => ({ PK: `ACCOUNT#${accountId}`, SK: `APIKEY#${keyId}` }),
  apiKeyPrefix: (accountId: string) => ({ PK: `ACCOUNT#${accountId}`, SKPrefix: 'APIKEY#' }),
  apiKeyHash: (hash: string) => ({ PK: `APIKEYHASH#${hash}`, SK: 'APIKEYHASH' }),
  email: (emailId: string) => ({ PK: `EMAIL#${emailId}`, SK: 'EMAIL' }),
  /**
   * Per-account listing of emails. The shard suffix lets a very large account spread its index writes
   * over several partitions (merged newest-first on read); accounts start with one shard.
   */
  emailsByAccount: (accountId: string, shard = 0) => `ACCOUNT#${accountId}#EMAILS#${shard}`,
};
