/**
 * GitBook's expressions, read without running code: literals, variables, operators, a few string
 * methods; what the preview cannot know is `Unknown`, and nothing reaches a prototype.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression, expressionError, Unknown, variablesNamed } from '../../src/main/core/content';

const scope = { space: { version: 'v3.0.4', food: 'pizza', count: 2, beta: true }, page: { page_food: 'soup' } };
const value = (source: string) => evaluateExpression(source, scope);

describe('expressions', () => {
  it('evaluates what GitBook’s docs show', () => {
    expect(value('1 + 1')).toBe(2);
    expect(value('space.vars.version')).toBe('v3.0.4');
    expect(value('"My favorite food is " + space.vars.food')).toBe('My favorite food is pizza');
    expect(value('page.vars.page_food')).toBe('soup');
    expect(value('space.vars.version === "v3.0.4" ? "Latest" : "Outdated"')).toBe('Latest');
    expect(value("space.vars['food'].toUpperCase()")).toBe('PIZZA');
    expect(value('!space.vars.beta || space.vars.count >= 2 && space.vars.count % 2 === 0')).toBe(true);
    expect(value('space.vars.missing ?? "none"')).toBe('none');
  });

  it('says Unknown for what only GitBook knows when a reader views the page', () => {
    expect(value('visitor.claims.plan')).toBe(Unknown);
    expect(value('visitor.claims.plan === "pro" ? "Pro" : "Free"')).toBe(Unknown);
    expect(value('space.vars.food.split(",")')).toBe(Unknown);
    expect(value('false && visitor.claims.x')).toBe(false);
  });

  it('never reaches a prototype or runs code', () => {
    expect(value('space.vars.constructor')).toBeUndefined();
    expect(value('space.vars.__proto__')).toBeUndefined();
    expect(value('"x".constructor')).toBeUndefined();
    expect(value('space.vars.food.constructor("alert(1)")')).toBe(Unknown);
    expect(expressionError('space.vars.food; alert(1)')).toMatch(/cannot read/);
    expect(expressionError('(a => a)(1)')).not.toBeNull();
  });

  it('names the variables an expression uses', () => {
    expect(variablesNamed('space.vars.a + page.vars["b"] + visitor.claims.c + space.vars')).toEqual([
      { scope: 'space', name: 'a' },
      { scope: 'page', name: 'b' },
    ]);
    expect(variablesNamed('not ( valid')).toEqual([]);
  });
});
