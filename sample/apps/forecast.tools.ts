import { Injectable } from '@nestjs/common';
import { McpArg, McpTool, McpUi } from 'nest-mcp';

const SKIES = ['sunny', 'cloudy', 'rain', 'wind'];

/** An MCP App: the forecast tool's result, shown as a table by sample/apps/forecast.html in hosts that render apps. */
@Injectable()
export class ForecastTools {
  @McpTool({
    name: 'forecast',
    description: 'Three-day weather forecast for a city (made up: a demo of MCP Apps)',
    annotations: { readOnlyHint: true },
    output: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: {
          type: 'array',
          items: {
            type: 'object',
            properties: { day: { type: 'string' }, sky: { type: 'string' }, high: { type: 'number' }, low: { type: 'number' } },
            required: ['day', 'sky', 'high', 'low'],
          },
        },
      },
      required: ['city', 'days'],
    },
  })
  // Served from the file beside this one, read once at start-up (the build copies it into dist/). As a URL
  // from this module's own import.meta.url, it is found in the stdio bundle too (docs/guide/stdio.md).
  @McpUi({
    resourceUri: 'ui://forecast/view.html',
    file: new URL('forecast.html', import.meta.url),
    resource: { name: 'forecast-view', description: 'Shows a forecast as a table', ui: { prefersBorder: true } },
  })
  forecast(@McpArg('city', { description: 'The city' }) city: string) {
    // Deterministic per city, so the demo (and its browser test) always shows the same days.
    const seed = [...city].reduce((sum, char) => sum + char.charCodeAt(0), 0);
    const days = ['Mon', 'Tue', 'Wed'].map((day, index) => {
      const high = 12 + ((seed + index * 7) % 15);
      return { day, sky: SKIES[(seed + index) % SKIES.length], high, low: high - 6 };
    });
    // content serves the model and hosts without apps; structuredContent is what the app renders.
    return {
      content: [{ type: 'text', text: `${city}: ${days.map((d) => `${d.day} ${d.sky} ${d.low}-${d.high}°C`).join(', ')}` }],
      structuredContent: { city, days },
    };
  }
}
