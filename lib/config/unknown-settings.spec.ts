import { describe, expect, it } from '@jest/globals';
import { ConfigService } from '@nestjs/config';
import { unknownSettingWarnings } from './unknown-settings.js';

const config = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

describe('unknownSettingWarnings', () => {
  it('names each misspelled MOCAPI_* variable and the setting it was probably meant to be', () => {
    const environment = { MOCAPI_MRTR_TLL: 'PT1M', MOCAPI_PLAYGRUND: 'false', MOCAPI_MRTR_TTL: 'PT2M', PATH: '/bin', MOCAPIX: '1' };
    expect(unknownSettingWarnings(config({}), environment)).toEqual([
      'MOCAPI_MRTR_TLL is not a setting and is ignored: did you mean MOCAPI_MRTR_TTL?',
      'MOCAPI_PLAYGRUND is not a setting and is ignored: did you mean MOCAPI_PLAYGROUND?',
    ]);
  });

  it('says so when nothing is near, rather than guess', () => {
    expect(unknownSettingWarnings(config({}), { MOCAPI_COLOUR_SCHEME: 'dark' })).toEqual([
      'MOCAPI_COLOUR_SCHEME is not a setting and is ignored: no setting of nest-mcp has a name like it (docs/reference/configuration.md lists them)',
    ]);
  });

  it("reads the config's mocapi object as dotted keys and answers in that form", () => {
    const service = new ConfigService({ mocapi: { mrtr: { ttl: 'PT1M', 'max-state-lenght': 10 }, 'page-size': 5, 'allowed-origins': ['https://a'], serverCard: { enabled: true } } });
    expect(unknownSettingWarnings(service, {})).toEqual([
      'mocapi.mrtr.max-state-lenght is not a setting and is ignored: did you mean mocapi.mrtr.max-state-length?',
      'mocapi.serverCard.enabled is not a setting and is ignored: did you mean mocapi.server-card.enabled?',
    ]);
  });

  it('is silent for known settings, and without a config reader (nothing is read then)', () => {
    expect(unknownSettingWarnings(config({ mocapi: 'not an object' }), { MOCAPI_AUTH_CLIENT_SECRET: 's', MOCAPI_STORE_CLIENT_SHARE: '1' })).toEqual([]);
    expect(unknownSettingWarnings(undefined, { MOCAPI_MRTR_TLL: 'PT1M' })).toEqual([]);
  });
});
