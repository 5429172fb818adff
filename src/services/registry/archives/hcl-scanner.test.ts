import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hclValueToJson, scanHcl } from './hcl-scanner.ts'
import { moduleContentsFromFiles } from './module-contents.ts'

describe('scanHcl', () => {
  it('reads blocks, labels, attributes and literal values', () => {
    const body = scanHcl(`
      # comment
      variable "tags" {
        type    = map(string)
        default = { Name = "x", "team" : "core" }
      }
      variable "zones" { default = ["a", "b"] }
      /* block comment { */
      resource aws_vpc this {
        count = var.enabled ? 1 : 0
      }
    `)
    expect(body.blocks.map((b) => [b.type, b.labels])).toEqual([
      ['variable', ['tags']],
      ['variable', ['zones']],
      ['resource', ['aws_vpc', 'this']],
    ])
    const tags = body.blocks[0]!.body.attributes
    expect(tags.get('type')).toMatchObject({ kind: 'expression', raw: 'map(string)' })
    expect(hclValueToJson(tags.get('default')!)).toBe('{"Name":"x","team":"core"}')
    expect(hclValueToJson(body.blocks[1]!.body.attributes.get('default')!)).toBe('["a","b"]')
    expect(body.blocks[2]!.body.attributes.get('count')).toMatchObject({ kind: 'expression', raw: 'var.enabled ? 1 : 0' })
  })

  it('decodes escapes and heredocs, and keeps templates as expressions', () => {
    const body = scanHcl(
      [
        'a = "line\\nnext \\"q\\" \\u00e9 $${literal}"',
        'b = "${var.x}-suffix"',
        'c = <<-EOT',
        '    indented',
        '      more',
        '    EOT',
        'd = -1',
        'e = true',
        'f = null',
      ].join('\n'),
    )
    const a = body.attributes
    expect(a.get('a')).toMatchObject({ kind: 'string', value: 'line\nnext "q" é ${literal}' })
    expect(a.get('b')).toMatchObject({ kind: 'expression', raw: '"${var.x}-suffix"' })
    expect(a.get('c')).toMatchObject({ kind: 'string', value: 'indented\n  more\n' })
    expect(hclValueToJson(a.get('d')!)).toBeUndefined()
    expect(a.get('d')!.raw).toBe('-1')
    expect(hclValueToJson(a.get('e')!)).toBe('true')
    expect(hclValueToJson(a.get('f')!)).toBe('null')
  })

  it('follows strings nested inside template sequences', () => {
    const body = scanHcl('x = "${join(",", ["}", "{"])}"\nvariable "after" {}\n')
    expect(body.attributes.get('x')!.kind).toBe('expression')
    expect(body.blocks.map((b) => b.labels[0])).toEqual(['after'])
  })

  it('skips what it cannot read and goes on', () => {
    const body = scanHcl('??? garbage ]]\nvariable "ok" {}\n}\noutput "o" { value = 1 }\n')
    expect(body.blocks.map((b) => `${b.type}.${b.labels[0]}`)).toEqual(['variable.ok', 'output.o'])
  })

  it('survives deep nesting without exhausting the stack', () => {
    const deep = 'a = ' + '['.repeat(50_000) + ']'.repeat(50_000) + '\n' + 'x {'.repeat(10_000) + '}'.repeat(10_000)
    expect(() => scanHcl(deep)).not.toThrow()
  })

  it('never throws on arbitrary text (fast-check)', () => {
    const hclish = fc
      .array(fc.constantFrom('variable', '"v"', '{', '}', '[', ']', '(', ')', '=', ',', ':', '\n', '"', '${', '<<EOT\n', 'EOT', '#', '/*', '*/', 'x', '1.5', '\\'), {
        maxLength: 60,
      })
      .map((parts) => parts.join(' '))
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), hclish), (text) => {
        const body = scanHcl(text)
        for (const value of body.attributes.values()) hclValueToJson(value)
        moduleContentsFromFiles(new Map([['main.tf', text]]))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('moduleContentsFromFiles', () => {
  it('reads inputs, outputs, resources, module calls and providers per directory', () => {
    const contents = moduleContentsFromFiles(
      new Map([
        ['variables.tf', 'variable "region" {\n  description = "Region"\n  default = "eu-west-1"\n}\nvariable "n" { type = number }\n'],
        ['main.tf', 'provider "random" {}\ndata "aws_caller_identity" "me" {}\nresource "aws_s3_bucket" "b" {}\nmodule "m" { source = "./modules/x" }\n'],
        ['versions.tf', 'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.0"\n    }\n    legacy = ">= 1.0"\n  }\n}\n'],
        ['modules/x/main.tf', 'output "id" { value = 1 }\n'],
        ['examples/basic/main.tf', 'module "root" { source = "../../../.." }\n'],
        ['docs/ignored.tf', 'resource "null_resource" "nope" {}\n'],
      ]),
    )
    expect(contents.root.inputs).toEqual([
      { name: 'region', type: '', description: 'Region', default: '"eu-west-1"', required: false },
      { name: 'n', type: 'number', description: '', default: '', required: true },
    ])
    expect(contents.root.resources).toEqual([{ name: 'b', type: 'aws_s3_bucket' }])
    expect(contents.root.dependencies).toEqual([{ name: 'm', source: './modules/x', version: '' }])
    expect(contents.root.providerDependencies).toEqual([
      { name: 'aws', namespace: 'hashicorp', source: 'hashicorp/aws', version: '~> 5.0' },
      { name: 'legacy', namespace: 'hashicorp', source: 'hashicorp/legacy', version: '>= 1.0' },
      { name: 'random', namespace: 'hashicorp', source: 'hashicorp/random', version: '' },
    ])
    expect(contents.submodules.map((s) => [s.path, s.outputs])).toEqual([['modules/x', [{ name: 'id', description: '' }]]])
    expect(contents.examples.map((s) => s.path)).toEqual(['examples/basic'])
  })
})
