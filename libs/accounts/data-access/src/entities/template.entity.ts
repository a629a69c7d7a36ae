import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'templates' })
export class TemplateEntity {
  /** Integer, as clients pass it in `template`. */
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ name: 'application_id', type: 'uuid' })
  applicationId: string;

  @Column({ type: 'text' })
  lang: string;

  @Column({ type: 'text' })
  text: string;

  /** The template this row translates (into `lang`); null for a template of its own. */
  @Column({ name: 'translation_of', type: 'integer', nullable: true })
  translationOf: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
