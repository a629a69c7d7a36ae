import { WorkerEnv } from '@mp/app-runtime';
import { Base64Key32, DEV_SECRETS, PrivateInProduction, RequiredInProduction } from '@mp/config';
import { IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export class OtpEnv extends WorkerEnv {
  override PORT: number = 3101;

  /** How often pending OTPs past their expiry are marked expired. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  OTP_EXPIRY_SWEEP_MS: number = 15_000;

  /** AES-256-GCM key that opens sealed codes just before they go to WhatsApp; the gateway's too. */
  @Base64Key32()
  @PrivateInProduction()
  OTP_TEXT_KEY: string = DEV_SECRETS.OTP_TEXT_KEY;

  /** The WhatsApp Cloud API: https://graph.facebook.com in production, the simulator under npm start. */
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  @RequiredInProduction()
  WHATSAPP_API_BASE_URL: string = 'http://127.0.0.1:2780';

  @Matches(/^v\d+\.\d+$/, { message: 'must be a Graph API version such as v21.0' })
  WHATSAPP_API_VERSION: string = 'v21.0';

  /** The business phone number's id in the Cloud API (the default is a test id of the simulator). */
  @IsString()
  @MinLength(1)
  @RequiredInProduction()
  WHATSAPP_PHONE_NUMBER_ID: string = '100000000000001';

  @IsString()
  @MinLength(1)
  @PrivateInProduction()
  WHATSAPP_ACCESS_TOKEN: string = DEV_SECRETS.WHATSAPP_ACCESS_TOKEN;

  /** The approved authentication template that carries the code. */
  @IsString()
  @MinLength(1)
  WHATSAPP_TEMPLATE_NAME: string = 'otp_authentication';

  @IsInt()
  @Min(100)
  @Max(120_000)
  WHATSAPP_TIMEOUT_MS: number = 10_000;
}
