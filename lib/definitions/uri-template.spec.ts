import { describe, expect, it } from '@jest/globals';
import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  it('lists the variables in order', () => {
    expect(new UriTemplate('users://{id}/posts/{postId}').variables).toEqual(['id', 'postId']);
    expect(new UriTemplate('files://{+path}').variables).toEqual(['path']);
    expect(new UriTemplate('static://fixed').variables).toEqual([]);
  });

  it('matches level-1 variables, one path segment each', () => {
    const template = new UriTemplate('users://{id}/posts/{postId}');
    expect(template.match('users://42/posts/7')).toEqual({ id: '42', postId: '7' });
    expect(template.match('users://42/posts/7/comments')).toBeUndefined();
    expect(template.match('users://4/2/posts/7')).toBeUndefined();
    expect(template.match('users:///posts/7')).toBeUndefined();
    expect(template.match('other://42/posts/7')).toBeUndefined();
  });

  it('stops a level-1 variable at ? and #', () => {
    const template = new UriTemplate('q://{term}');
    expect(template.match('q://abc')).toEqual({ term: 'abc' });
    expect(template.match('q://abc?x=1')).toBeUndefined();
    expect(template.match('q://abc#frag')).toBeUndefined();
  });

  it('matches {+var} across segments', () => {
    const template = new UriTemplate('files://{+path}');
    expect(template.match('files://src/lib/a.ts')).toEqual({ path: 'src/lib/a.ts' });
    expect(template.match('files://')).toBeUndefined();
  });

  it('percent-decodes values', () => {
    expect(new UriTemplate('tags://{name}').match('tags://caf%C3%A9%20au%20lait')).toEqual({ name: 'café au lait' });
    expect(new UriTemplate('tags://{name}').match('tags://a%2Fb')).toEqual({ name: 'a/b' });
  });

  it('does not match invalid percent-encoding', () => {
    expect(new UriTemplate('tags://{name}').match('tags://%E0%A4%A')).toBeUndefined();
  });

  it('takes the literal parts literally (regex characters escaped)', () => {
    const template = new UriTemplate('a.b://x+y/{id}.json');
    expect(template.match('a.b://x+y/1.json')).toEqual({ id: '1' });
    expect(template.match('aXb://x+y/1.json')).toBeUndefined();
    expect(template.match('a.b://xxy/1.json')).toBeUndefined();
    expect(template.match('a.b://x+y/1Xjson')).toBeUndefined();
  });

  it('a template without variables matches only itself', () => {
    const template = new UriTemplate('static://fixed');
    expect(template.match('static://fixed')).toEqual({});
    expect(template.match('static://fixed2')).toBeUndefined();
  });

  it.each(['users://{id', 'users://id}', 'q://{?query}', 'q://{#frag}', 'q://{a,b}', 'q://{}', 'q://{-x}'])(
    'rejects the unsupported template %s',
    (source) => {
      expect(() => new UriTemplate(source)).toThrow(`Unsupported URI template "${source}": use {name} or {+name} expressions`);
    },
  );

  it('a variable named like an Object.prototype member is an own value', () => {
    const variables = new UriTemplate('odd://{__proto__}/{constructor}').match('odd://a/b');
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
    expect(Object.entries(variables!)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });

  it('rejects a repeated variable', () => {
    expect(() => new UriTemplate('x://{id}/{id}')).toThrow('URI template "x://{id}/{id}" repeats a variable');
  });
});
