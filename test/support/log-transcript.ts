import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** One line as Nest's console logger prints it: `[Nest] <pid>  - <time>   <LEVEL> [<context>] <message>`. */
const NEST_LINE = /^\[Nest\] \d+ +- .*? +(LOG|ERROR|WARN|DEBUG|VERBOSE|FATAL) \[([^\]]*)\] (.*)$/;

/** A printed line that a Nest line's level and context could be read from, or a continuation (a stack frame, a forged line). */
export interface PrintedLine {
  text: string;
  /** The level and context when the line is one Nest printed as a log entry's head. */
  level?: Uppercase<LogLevel>;
  context?: string;
  message?: string;
}

/**
 * Nest's own ConsoleLogger (no colours), its output kept instead of written: the text an operator
 * would read on the console, so a test reads the log as printed, line by line. A message with a
 * newline in it prints as more than one line, just as it would on a terminal.
 */
export class LogTranscript extends ConsoleLogger {
  text = '';

  constructor() {
    super({ colors: false });
  }

  /** Every printed line; a head line carries its level, context and message. */
  get lines(): PrintedLine[] {
    return this.text
      .split('\n')
      .filter((line) => line !== '')
      .map((text) => {
        const head = NEST_LINE.exec(text);
        return head ? { text, level: head[1] as Uppercase<LogLevel>, context: head[2], message: head[3] } : { text };
      });
  }

  /** The head lines whose message contains `fragment`. */
  entries(fragment: string): PrintedLine[] {
    return this.lines.filter((line) => line.message?.includes(fragment));
  }

  /** Lines that are no entry's head: stack frames, and anything a message smuggled onto a line of its own. */
  get continuations(): string[] {
    return this.lines.filter((line) => line.level === undefined).map((line) => line.text);
  }

  clear(): void {
    this.text = '';
  }

  protected override formatMessage(...args: Parameters<ConsoleLogger['formatMessage']>): string {
    this.text += super.formatMessage(...args);
    return '';
  }

  protected override printStackTrace(stack: string): void {
    if (stack) this.text += `${stack}\n`;
  }
}
