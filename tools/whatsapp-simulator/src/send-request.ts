/** An accepted authentication-template message, as the handset receives it. */
export interface TemplateMessage {
  /** Digits without '+', as sent. */
  to: string;
  template: string;
  language: string;
  /** The code: the body's text parameter. */
  code: string;
}

export type SendRequestResult = { ok: true; message: TemplateMessage } | { ok: false; problem: string };

type Json = Record<string, unknown>;

/** Thrown inside the parser, caught at its edge: one message naming what is wrong. */
class Invalid extends Error {}

const TEMPLATE_NAME = /^[a-z0-9_]{1,512}$/;
const LANGUAGE_CODE = /^[a-z]{2,3}(_[A-Za-z]{2,4})?$/;
/** Meta limits the code of an authentication template to 15 characters. */
const MAX_CODE_LENGTH = 15;

/** Meta's fixed text of an authentication template, which is what the handset shows. */
export function authenticationText(code: string): string {
  return `${code} is your verification code. For your security, do not share this code.`;
}

/**
 * Checks a POST /messages body against the authentication-template shape the platform sends:
 * { messaging_product: "whatsapp", recipient_type?: "individual", to, type: "template",
 *   template: { name, language: { code }, components: [body with one text parameter, url button?] } }
 */
export function parseSendRequest(body: unknown): SendRequestResult {
  try {
    return { ok: true, message: parse(body) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, problem: error.message };
    throw error;
  }
}

function parse(body: unknown): TemplateMessage {
  const request = object(body, 'the request body');
  if (request['messaging_product'] !== 'whatsapp') fail('messaging_product must be "whatsapp"');
  if (request['recipient_type'] !== undefined && request['recipient_type'] !== 'individual') {
    fail('recipient_type must be "individual"');
  }
  const to = request['to'];
  if (typeof to !== 'string' || !/^[0-9]{8,15}$/.test(to)) fail('to must be the phone number as 8 to 15 digits, without "+"');
  if (request['type'] !== 'template') fail('type must be "template" (the simulator only takes template messages)');
  const template = object(request['template'], 'template');
  const name = template['name'];
  if (typeof name !== 'string' || name === '') fail('template.name is required');
  if (!TEMPLATE_NAME.test(name)) fail('template.name must be lowercase letters, digits and underscores');
  const language = object(template['language'], 'template.language')['code'];
  if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) fail('template.language.code must be a language code such as en or en_US');
  return { to, template: name, language, code: parseComponents(template['components']) };
}

/** The code: the body's only text parameter (repeated by an optional copy-code URL button). */
function parseComponents(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) fail('template.components must list a body component with the code');
  let code: string | undefined;
  let button = false;
  for (const [index, item] of value.entries()) {
    const path = `template.components[${index}]`;
    const component = object(item, path);
    if (component['type'] === 'body') {
      if (code !== undefined) fail('template.components has more than one body component');
      code = codeParameter(component, path);
    } else if (component['type'] === 'button') {
      if (button) fail('template.components has more than one button component');
      parseButton(component, path);
      button = true;
    } else {
      fail(`${path}.type must be "body" or "button"`);
    }
  }
  if (code === undefined) fail('template.components has no body component with the code as its text parameter');
  return code;
}

function parseButton(component: Json, path: string): void {
  if (component['sub_type'] !== 'url') fail(`${path}.sub_type must be "url"`);
  if (component['index'] !== '0' && component['index'] !== 0) fail(`${path}.index must be "0"`);
  codeParameter(component, path);
}

function codeParameter(component: Json, path: string): string {
  const parameters = component['parameters'];
  if (!Array.isArray(parameters) || parameters.length !== 1) fail(`${path}.parameters must hold exactly one text parameter (the code)`);
  const parameter = object(parameters[0], `${path}.parameters[0]`);
  if (parameter['type'] !== 'text') fail(`${path}.parameters[0].type must be "text"`);
  const text = parameter['text'];
  if (typeof text !== 'string' || text.trim() === '') fail(`${path}.parameters[0].text is required`);
  if ([...text].length > MAX_CODE_LENGTH) fail(`${path}.parameters[0].text must be at most ${MAX_CODE_LENGTH} characters`);
  return text;
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${path} must be a JSON object`);
  return value as Json;
}

function fail(problem: string): never {
  throw new Invalid(problem);
}
