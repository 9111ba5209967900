import { Body, Controller, Delete, Get, HttpCode, NotFoundException, Param, ParseIntPipe, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { McpTool, ToolContext, type McpToolContext } from 'nest-mcp';
import { EditorRoleGuard } from './editor-role.guard.js';
import { CreateNoteDto, ImportNotesDto, NoteDto, UpdateNoteDto } from './note.dto.js';

/**
 * A small REST resource whose routes are also MCP tools: one controller, one validation (the global
 * ValidationPipe), one guard, for both. The writes need `X-Demo-Role: editor`.
 */
@Controller('notes')
export class NotesController {
  private readonly notes = new Map<number, NoteDto>([[1, { id: 1, title: 'Welcome', text: 'This note came with the sample.', tags: ['demo'] }]]);
  private nextId = 2;

  @Get()
  @McpTool({ name: 'notes_list', description: 'Lists the notes, or those with a tag' })
  list(@Query('tag') tag?: string): NoteDto[] {
    return [...this.notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
  }

  @Get(':id')
  @McpTool({ name: 'notes_get', description: 'Reads one note by its id', output: NoteDto })
  get(@Param('id', ParseIntPipe) id: number): NoteDto {
    return this.find(id);
  }

  @Post()
  @UseGuards(EditorRoleGuard)
  @McpTool({ name: 'notes_create', description: 'Creates a note (editors only)', output: NoteDto })
  create(@Body() dto: CreateNoteDto): NoteDto {
    const note: NoteDto = { id: this.nextId++, title: dto.title, text: dto.text ?? '', tags: dto.tags ?? [] };
    this.notes.set(note.id, note);
    return note;
  }

  @Patch(':id')
  @UseGuards(EditorRoleGuard)
  @McpTool({ name: 'notes_update', description: 'Changes the title or text of a note (editors only)', output: NoteDto })
  update(@Param('id', ParseIntPipe) id: number, @Body() dto: UpdateNoteDto): NoteDto {
    // Only what was sent: the DTO's absent fields are own properties set to undefined.
    const changes = Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined));
    const note = { ...this.find(id), ...changes };
    this.notes.set(id, note);
    return note;
  }

  @Delete(':id')
  @HttpCode(204)
  @UseGuards(EditorRoleGuard)
  @McpTool({ name: 'notes_delete', description: 'Deletes a note (editors only)' })
  remove(@Param('id', ParseIntPipe) id: number): void {
    this.find(id);
    this.notes.delete(id);
  }

  /**
   * Over MCP, asks the user to confirm and reports progress per note; over REST the context is
   * `null` (no one to ask), and the import just runs.
   */
  @Post('import')
  @UseGuards(EditorRoleGuard)
  @McpTool({ name: 'notes_import', description: 'Imports several notes at once, after the user confirms (editors only)' })
  async import(@Body() dto: ImportNotesDto, @ToolContext() ctx: McpToolContext | null): Promise<{ imported: number[] }> {
    if (ctx) {
      const answer = await ctx.elicit(`Import ${dto.notes.length} note(s)?`, (schema) => schema.bool('confirmed', 'Import them'));
      if (!answer.isAccepted() || !answer.getBool('confirmed')) return { imported: [] };
    }
    const progress = ctx?.longProgress(dto.notes.length);
    const imported: number[] = [];
    for (const [index, note] of dto.notes.entries()) {
      imported.push(this.create(note).id);
      progress?.emit(index + 1, `imported "${note.title}"`);
    }
    return { imported };
  }

  private find(id: number): NoteDto {
    const note = this.notes.get(id);
    if (!note) throw new NotFoundException(`Note ${id} does not exist`);
    return note;
  }
}
