/** Static values of the embedded local cloud. */
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT_ID = '000000000000';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
