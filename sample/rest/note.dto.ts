import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';

/** What a client sends to create a note. */
export class CreateNoteDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  title!: string;

  @IsOptional()
  @IsString()
  text?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsString({ each: true })
  tags?: string[];
}

/** What a client sends to change a note: every field optional. */
export class UpdateNoteDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  title?: string;

  @IsOptional()
  @IsString()
  text?: string;
}

/** Several notes at once. */
export class ImportNotesDto {
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => CreateNoteDto)
  notes!: CreateNoteDto[];
}

/** A stored note, as the API answers it. */
export class NoteDto {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  title!: string;

  @IsString()
  text!: string;

  @IsArray()
  @IsString({ each: true })
  tags!: string[];
}
