// The environment Kubernetes gives a container: the image's ENV, then envFrom (ConfigMaps and
// Secrets, with their prefix), then env (values with $(VAR) references, configMapKeyRef and
// secretKeyRef). A reference Kubernetes would not start the pod with is reported, not guessed.
export type Env = Record<string, string>;

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef; fieldRef?: { fieldPath: string } };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface Container {
  name: string;
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
}

export interface ConfigSources {
  /** ConfigMaps by name: their data. */
  configMaps: Record<string, Env>;
  /** Secrets by name: their stringData (and data, decoded). */
  secrets: Record<string, Env>;
}

/** $(VAR) references to variables defined before; $$( escapes; an unknown reference stays as written. */
export function expandReferences(value: string, env: Env): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name?: string) => {
    if (name === undefined) return '$';
    return env[name] ?? whole;
  });
}

function lookUp(kind: 'ConfigMap' | 'Secret', sources: Record<string, Env>, ref: KeyRef, errors: string[]): string | undefined {
  const value = sources[ref.name]?.[ref.key];
  if (value === undefined && !ref.optional) errors.push(`${kind} ${ref.name} has no key ${ref.key}`);
  return value;
}

/** What the container's process sees, and why Kubernetes would refuse to start it, if it would. */
export function containerEnv(container: Container, imageEnv: Env, sources: ConfigSources): { env: Env; errors: string[] } {
  const env: Env = { ...imageEnv };
  const errors: string[] = [];
  for (const from of container.envFrom ?? []) {
    const [kind, ref, pool] = from.configMapRef
      ? (['ConfigMap', from.configMapRef, sources.configMaps] as const)
      : from.secretRef
        ? (['Secret', from.secretRef, sources.secrets] as const)
        : [undefined, undefined, undefined];
    if (!kind) {
      errors.push('envFrom entry with neither configMapRef nor secretRef');
      continue;
    }
    const data = pool[ref.name];
    if (data === undefined) {
      if (!ref.optional) errors.push(`${kind} ${ref.name} does not exist`);
      continue;
    }
    for (const [key, value] of Object.entries(data)) env[`${from.prefix ?? ''}${key}`] = value;
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom;
    let value: string | undefined;
    if (from?.configMapKeyRef) value = lookUp('ConfigMap', sources.configMaps, from.configMapKeyRef, errors);
    else if (from?.secretKeyRef) value = lookUp('Secret', sources.secrets, from.secretKeyRef, errors);
    else if (from?.fieldRef) value = `<${from.fieldRef.fieldPath}>`;
    else if (from) errors.push(`${variable.name}: unsupported valueFrom ${Object.keys(from).join(', ')}`);
    else value = expandReferences(variable.value ?? '', env);
    if (value !== undefined) env[variable.name] = value;
  }
  return { env, errors };
}

/** A Secret's values: stringData as written, data decoded from base64 (stringData wins, as in the API). */
export function secretValues(secret: { data?: Env; stringData?: Env }): Env {
  const decoded = Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
  return { ...decoded, ...(secret.stringData ?? {}) };
}

/** The process the platform's image runs in this container: its first argument, else APP. */
export function containerProcess(container: Container, env: Env): string | undefined {
  return container.args?.[0] ?? env['APP'];
}
