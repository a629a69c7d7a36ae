// The renderers the deployment tests rely on behave as docker compose and Kubernetes do.
import { composeProcess, interpolate, parseDotenv, renderCompose, serviceEnv } from './compose-env';
import { containerEnv, expandReferences, secretValues } from './k8s-env';
import { fillFor, fillPlaceholders } from './placeholders';

describe('compose interpolation', () => {
  const variables = { SET: 'value', EMPTY: '' };
  it.each([
    ['${SET}', 'value'],
    ['$SET and $$SET', 'value and $SET'],
    ['${MISSING}', ''],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY-fallback}', ''],
    ['${MISSING-fallback}', 'fallback'],
    ['${MISSING:-${SET}}', 'value'],
    ['${SET:+alt}|${EMPTY:+alt}|${EMPTY+alt}', 'alt||alt'],
    ['pre-${SET:?needed}-post', 'pre-value-post'],
  ])('%s', (text, expected) => {
    const errors: string[] = [];
    expect(interpolate(text, variables, errors)).toBe(expected);
    expect(errors).toEqual([]);
  });

  it('collects a required variable without a value, as compose refuses the file', () => {
    const errors: string[] = [];
    interpolate('${EMPTY:?set EMPTY} ${MISSING?} ${EMPTY?ok}', variables, errors);
    expect(errors).toEqual(['EMPTY: set EMPTY', 'MISSING: required variable is missing a value']);
  });

  it('reads .env lines as compose does', () => {
    expect(parseDotenv('# c\nA=1\nexport B = two \nC="quoted # kept"\nD=x # comment\n\nnot a line')).toEqual({ A: '1', B: 'two', C: 'quoted # kept', D: 'x' });
  });
});

describe('a compose service environment', () => {
  const compose = [
    'x-env: &env',
    '  SHARED: ${SHARED:-shared}',
    'services:',
    '  app:',
    '    image: img',
    '    command: ["gateway"]',
    '    env_file: [app.env, { path: missing.env, required: false }]',
    '    environment:',
    '      <<: *env',
    '      PORT: 3000',
    '      FROM_HOST:',
    '      OVERRIDDEN: ${TOKEN:?set TOKEN}',
  ].join('\n');

  it('is the image ENV, then env_files, then environment, merge keys applied', () => {
    const { services, errors } = renderCompose(compose, { TOKEN: 't', FROM_HOST: 'h' });
    expect(errors).toEqual([]);
    const files: Record<string, string> = { '/x/app.env': 'OVERRIDDEN=from-file\nFILE_ONLY=${TOKEN}\nIMAGE=file' };
    const { env, errors: serviceErrors } = serviceEnv(services['app'], {
      imageEnv: { IMAGE: 'image', KEPT: 'image' },
      dotenv: { TOKEN: 't', FROM_HOST: 'h' },
      composeFile: '/x/docker-compose.yml',
      readFile: (path) => files[path],
    });
    expect(serviceErrors).toEqual([]);
    expect(env).toEqual({ IMAGE: 'file', KEPT: 'image', FILE_ONLY: 't', SHARED: 'shared', PORT: '3000', FROM_HOST: 'h', OVERRIDDEN: 't' });
    expect(composeProcess(services['app'], env)).toBe('gateway');
  });

  it('reports what compose would refuse: a required variable, a missing env_file', () => {
    const { services, errors } = renderCompose(compose, {});
    expect(errors).toEqual(['TOKEN: set TOKEN']);
    expect(serviceEnv(services['app'], { imageEnv: {}, dotenv: {}, composeFile: '/x/c.yml', readFile: () => undefined }).errors).toEqual([
      'env_file app.env does not exist',
    ]);
  });
});

describe('a Kubernetes container environment', () => {
  const sources = {
    configMaps: { config: { A: 'config', B: 'config' } },
    secrets: { secret: secretValues({ data: { S: Buffer.from('decoded').toString('base64') }, stringData: { T: 'plain' } }) },
  };

  it('is the image ENV, then envFrom (with prefixes), then env with $(VAR) references and key references', () => {
    const { env, errors } = containerEnv(
      {
        name: 'c',
        envFrom: [{ configMapRef: { name: 'config' } }, { prefix: 'X_', secretRef: { name: 'secret' } }],
        env: [
          { name: 'B', value: 'own' },
          { name: 'URL', value: 'http://$(A):$$(A)' },
          { name: 'S', valueFrom: { secretKeyRef: { name: 'secret', key: 'S' } } },
          { name: 'OPT', valueFrom: { secretKeyRef: { name: 'secret', key: 'NONE', optional: true } } },
        ],
      },
      { A: 'image', I: 'image' },
      sources,
    );
    expect(errors).toEqual([]);
    expect(env).toEqual({ A: 'config', I: 'image', B: 'own', X_S: 'decoded', X_T: 'plain', URL: 'http://config:$(A)', S: 'decoded' });
  });

  it('reports the references Kubernetes would not start the pod with', () => {
    const { errors } = containerEnv(
      { name: 'c', envFrom: [{ configMapRef: { name: 'nope' } }], env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'secret', key: 'NONE' } } }] },
      {},
      sources,
    );
    expect(errors).toEqual(['ConfigMap nope does not exist', 'Secret secret has no key NONE']);
    expect(expandReferences('$(UNKNOWN)', {})).toBe('$(UNKNOWN)');
  });
});

describe('filling the placeholders', () => {
  const text = [
    '# Generate with:',
    '#   openssl rand -base64 32',
    'KEY=change-me',
    'OTHER=CHANGE_ME',
    '',
    '# From your carrier.',
    'HOST: change-me',
    'KEPT=value',
  ].join('\n');

  it("uses the last openssl command in the key's paragraph, else a value of the operator's", () => {
    expect(Buffer.from(fillFor(text, 'KEY'), 'base64')).toHaveLength(32);
    expect(Buffer.from(fillFor(text, 'OTHER'), 'base64')).toHaveLength(32);
    expect(fillFor(text, 'HOST')).toBe('operator-set-host');
    const filled = fillPlaceholders({ KEY: 'change-me', HOST: 'change-me', KEPT: 'value' }, text);
    expect(filled['KEPT']).toBe('value');
    expect(filled['KEY']).not.toBe('change-me');
  });
});
