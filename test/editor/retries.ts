/* eslint-disable @n8n/community-nodes/no-restricted-globals -- jest setup: reads the environment */
// A step of the editor that fails is tried again once, from its own starting point (every test
// opens its own workflow), with the first failure printed; a second failure fails the test.
jest.retryTimes(Number(process.env.CONTENTGEN_EDITOR_RETRIES ?? 1), { logErrorsBeforeRetry: true });
