import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpComplete, McpModule, McpPrompt, McpResourceTemplate, McpTool } from '../../lib/index.js';

export enum Fruit {
  Apple = 'apple',
  Apricot = 'apricot',
  Banana = 'banana',
  Cherry = 'cherry',
}

const CITIES: Record<string, string[]> = {
  fr: ['paris', 'lyon', 'lille'],
  de: ['berlin', 'bonn', 'lübeck'],
};

/** 150 candidate values: item-000 … item-149. */
export const MANY = Array.from({ length: 150 }, (_, index) => `item-${String(index).padStart(3, '0')}`);

@Injectable()
export class FeaturesCompletions {
  @McpPrompt({ name: 'order', description: 'Orders fruit in a city' })
  order(
    @McpArg('fruit', { description: 'Which fruit', enum: Fruit }) fruit: Fruit,
    @McpArg('country', { description: 'Country code' }) country: string,
    @McpArg('city', { description: 'City' }) city: string,
    @McpArg('item', { description: 'A catalogue item', required: false }) item?: string,
    @McpArg('note', { description: 'Free text', required: false }) note?: string,
  ): string {
    return `${fruit} to ${city}, ${country} ${item ?? ''} ${note ?? ''}`;
  }

  @McpComplete({ prompt: 'order', argument: 'city' })
  completeCity(value: string, context: { arguments: Record<string, string> }): string[] {
    const cities = context.arguments.country ? (CITIES[context.arguments.country] ?? []) : Object.values(CITIES).flat();
    return cities.filter((city) => city.startsWith(value));
  }

  @McpComplete({ prompt: 'order', argument: 'item' })
  completeItem(value: string): string[] {
    return MANY.filter((item) => item.startsWith(value));
  }

  @McpResourceTemplate({ uriTemplate: 'shelf://{fruit}/{size}', name: 'shelf', description: 'A shelf' })
  shelf(@McpArg('fruit', { enum: Fruit }) fruit: Fruit, @McpArg('size') size: string): string {
    return `${fruit} ${size}`;
  }

  @McpComplete({ resourceTemplate: 'shelf://{fruit}/{size}', argument: 'size' })
  completeSize(value: string, context: { arguments: Record<string, string> }) {
    const sizes = context.arguments.fruit === 'banana' ? ['bunch', 'single'] : ['small', 'large'];
    const values = sizes.filter((size) => size.startsWith(value));
    return { values, total: 40, hasMore: true };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-completion', version: '1.0.0' })],
  providers: [FeaturesCompletions],
})
export class FeaturesCompletionModule {}

@Injectable()
export class FeaturesNothingCompletes {
  @McpPrompt({ name: 'plain', description: 'A prompt with a free-text argument' })
  plain(@McpArg('topic') topic: string): string {
    return topic;
  }

  @McpResourceTemplate({ uriTemplate: 'plain://{id}', name: 'plain', description: 'A template with a free variable' })
  template(@McpArg('id') id: string): string {
    return id;
  }

  @McpTool({ description: 'A tool with an enum argument (tools do not complete)' })
  pick(@McpArg('fruit', { enum: Fruit }) fruit: Fruit): string {
    return fruit;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'features-no-completion', version: '1.0.0' })],
  providers: [FeaturesNothingCompletes],
})
export class FeaturesNoCompletionModule {}
