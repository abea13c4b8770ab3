/** bench:send's progress lines, on stderr (stdout carries only the report). */
export const log = (message: string) => console.error(`[bench:send] ${message}`);
