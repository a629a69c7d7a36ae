// No secret in the deployment files: only placeholders, and each secret where only its apps see it.
import { CredentialEnv, loadConfig } from '@mp/config';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DOCKER, envFile, GATEWAY_SECRETS, K8S, read, ROOT, yamlDocuments } from './platform-facts';

const SECRET_NAME = /SECRET|PEPPER|PASSWORD|TOKEN/;
const PLACEHOLDER = /^change[-_]?me$/i;

/** Files under a directory, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Long tokens mixing upper case, lower case and digits, or long hex: what keys and passwords look like. */
function secretLooking(text: string): string[] {
  const tokens = text.match(/[A-Za-z0-9+/=_-]{24,}/g) ?? [];
  return tokens.filter((token) => {
    const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((pattern) => pattern.test(token)).length;
    return classes === 3 || /^[0-9a-f]{32,}$/i.test(token);
  });
}

describe('secrets', () => {
  const envExampleText = read(join(DOCKER, '.env.example'));
  const envExample = envFile(envExampleText);
  const secretTemplate = yamlDocuments(join(K8S, 'secret.example.yaml'))[0] as { kind: string; stringData: Record<string, string> };

  it('docker/.env.example has placeholders only, and says how to generate real values', () => {
    const secrets = Object.keys(envExample).filter((key) => SECRET_NAME.test(key));
    expect(secrets).toEqual(expect.arrayContaining([...GATEWAY_SECRETS, 'POSTGRES_PASSWORD']));
    for (const key of secrets) expect({ key, value: envExample[key] }).toEqual({ key, value: expect.stringMatching(PLACEHOLDER) });
    expect(envExampleText).toContain('openssl rand -base64 48');
  });

  it('the gateway refuses the placeholder pepper in production', () => {
    expect(() => loadConfig(CredentialEnv, { NODE_ENV: 'production', API_KEY_PEPPER: envExample.API_KEY_PEPPER })).toThrow(/API_KEY_PEPPER/);
  });

  it('k8s/secret.example.yaml is a template with placeholders, including inside URLs', () => {
    expect(secretTemplate.kind).toBe('Secret');
    for (const [key, value] of Object.entries(secretTemplate.stringData)) {
      if (SECRET_NAME.test(key)) expect({ key, value }).toEqual({ key, value: expect.stringMatching(PLACEHOLDER) });
      if (/^\w+:\/\//.test(value)) {
        const password = decodeURIComponent(new URL(value).password);
        expect({ key, password }).toEqual({ key, password: expect.stringMatching(PLACEHOLDER) });
      }
    }
    expect(read(join(K8S, 'secret.example.yaml'))).toContain('openssl rand -base64 48');
  });

  it('no file under docker/ or k8s/ holds a real-looking secret or key', () => {
    for (const path of [...filesUnder(DOCKER), ...filesUnder(K8S)]) {
      const text = read(path);
      expect({ file: relative(ROOT, path), found: secretLooking(text) }).toEqual({ file: relative(ROOT, path), found: [] });
      expect(text).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    }
  });
});
