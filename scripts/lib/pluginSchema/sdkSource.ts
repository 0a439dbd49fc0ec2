// The SDK's declarations as the package schema reads them, with the TypeScript compiler: each
// argument's and output's documentation and declared type stay written once, in sdk/*.ts (and the
// few model/client files whose types the SDK names), and the schema is generated from them.

import * as path from "node:path";
import * as ts from "typescript";

/** One property of an interface, class or object type, as declared. */
export interface DeclaredProperty {
  name: string;
  optional: boolean;
  /** Its documentation comment, `{@link X}` written as `X`. */
  doc: string;
  type: ts.TypeNode | undefined;
}

/** The files whose declarations the schema reads (each brings what it imports). */
const ENTRY_FILES = ["sdk/index.ts", "model/lookup/accountLimits.ts", "client/catalogTypes.ts", "model/cost/estimate.ts"];

/** The file declaring `Integer`, the whole-number type (a number the schema types `integer`). */
const INTEGER_FILE = "client/integer.ts";

export class SdkSource {
  readonly #program: ts.Program;
  readonly #checker: ts.TypeChecker;
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
    this.#program = ts.createProgram(
      ENTRY_FILES.map((file) => path.join(root, file)),
      { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.CommonJS, types: [] },
    );
    this.#checker = this.#program.getTypeChecker();
  }

  /** The properties an interface or class declares (a class's constructor and methods left out). */
  members(file: string, name: string): DeclaredProperty[] {
    const declaration = this.#declaration(file, name);
    const members: readonly ts.Node[] =
      ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration) ? declaration.members : [];
    return members.filter((m) => ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)).map((m) => this.#property(m));
  }

  /**
   * The documentation comment of a top-level declaration (interface, class, function, const, type):
   * its own, not that of a declaration merged with it (a class's argument-outputs interface).
   */
  doc(file: string, name: string): string {
    return ownDoc(this.#declaration(file, name));
  }

  /** A function's declared return type. */
  returnType(file: string, name: string): ts.TypeNode | undefined {
    const declaration = this.#declaration(file, name);
    return ts.isFunctionDeclaration(declaration) ? declaration.type : undefined;
  }

  /** The members of the interface a function's first parameter is declared as (inherited ones included). */
  parameterMembers(file: string, name: string): DeclaredProperty[] {
    const declaration = this.#declaration(file, name);
    const type = ts.isFunctionDeclaration(declaration) ? declaration.parameters[0]?.type : undefined;
    return this.#membersOfReference(type, `${name}'s arguments`);
  }

  /** The members of the interface a function's result is declared as (through its Promise). */
  returnMembers(file: string, name: string): DeclaredProperty[] {
    let type = this.returnType(file, name);
    if (type && ts.isTypeReferenceNode(type) && type.typeName.getText() === "Promise") type = type.typeArguments?.[0];
    return this.#membersOfReference(type, `${name}'s result`);
  }

  #membersOfReference(type: ts.TypeNode | undefined, what: string): DeclaredProperty[] {
    const referenced = type && ts.isTypeReferenceNode(type) ? this.referenced(type) : undefined;
    if (!referenced) throw new Error(`plugin schema: ${what} is not declared as an interface`);
    return this.interfaceMembers(referenced.declaration);
  }

  /** The properties of a type alias or interface as the checker computes them (mapped and picked types included). */
  propertiesOfType(file: string, name: string): { name: string; optional: boolean }[] {
    const declaration = this.#declaration(file, name);
    const type = this.#checker.getTypeAtLocation(declaration);
    return this.#checker.getPropertiesOfType(type).map((symbol) => ({
      name: symbol.getName(),
      optional: (symbol.getFlags() & ts.SymbolFlags.Optional) !== 0,
    }));
  }

  /** The interface or type alias a type reference names (through imports and re-exports). */
  referenced(node: ts.TypeReferenceNode): { name: string; declaration: ts.InterfaceDeclaration } | undefined {
    let symbol = this.#checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.getFlags() & ts.SymbolFlags.Alias) symbol = this.#checker.getAliasedSymbol(symbol);
    const declaration = symbol?.getDeclarations()?.find(ts.isInterfaceDeclaration);
    return declaration ? { name: declaration.name.text, declaration } : undefined;
  }

  /** Whether a type reference names the whole-number type `Integer` of client/integer.ts (through imports and re-exports). */
  isInteger(node: ts.TypeReferenceNode): boolean {
    const declaration = this.#aliasDeclaration(node);
    return declaration?.name.text === "Integer" && declaration.getSourceFile().fileName === path.join(this.#root, INTEGER_FILE);
  }

  /** The type a type alias reference stands for (`PublicTemplateSource` as its union of literals). */
  aliasedType(node: ts.TypeReferenceNode): ts.TypeNode | undefined {
    return this.#aliasDeclaration(node)?.type;
  }

  #aliasDeclaration(node: ts.TypeReferenceNode): ts.TypeAliasDeclaration | undefined {
    let symbol = this.#checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.getFlags() & ts.SymbolFlags.Alias) symbol = this.#checker.getAliasedSymbol(symbol);
    return symbol?.getDeclarations()?.find(ts.isTypeAliasDeclaration);
  }

  /** The documentation of an interface found by `referenced`. */
  declarationDoc(declaration: ts.InterfaceDeclaration): string {
    const symbol = this.#checker.getSymbolAtLocation(declaration.name);
    return symbol ? docText(symbol, this.#checker) : "";
  }

  /** The properties of an interface found by `referenced`, those it inherits included (after its own). */
  interfaceMembers(declaration: ts.InterfaceDeclaration): DeclaredProperty[] {
    const own = declaration.members.filter(ts.isPropertySignature);
    const inherited = this.#checker
      .getPropertiesOfType(this.#checker.getTypeAtLocation(declaration))
      .map((symbol) => symbol.valueDeclaration)
      .filter((d): d is ts.PropertySignature => d !== undefined && ts.isPropertySignature(d) && !own.includes(d));
    return [...own, ...inherited].map((m) => this.#property(m));
  }

  #property(member: ts.PropertySignature | ts.PropertyDeclaration): DeclaredProperty {
    const symbol = this.#checker.getSymbolAtLocation(member.name);
    return {
      name: member.name.getText(),
      optional: member.questionToken !== undefined,
      doc: symbol ? docText(symbol, this.#checker) : "",
      type: member.type,
    };
  }

  /** The declaration of `name` in `file`: a class before an interface merged into it (a resource's argument outputs). */
  #declaration(file: string, name: string): ts.Node {
    const source = this.#program.getSourceFile(path.join(this.#root, file));
    if (!source) throw new Error(`plugin schema: ${file} is not part of the SDK's sources`);
    const found = source.statements.filter((statement) => namesOf(statement).includes(name));
    const first = found.find(ts.isClassDeclaration) ?? found[0];
    if (!first) throw new Error(`plugin schema: ${file} declares no ${name}`);
    return first;
  }
}

/** A symbol's documentation as plain markdown. */
function docText(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  return withoutLinks(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
}

/** The comment of one declaration's own JSDoc block(s). */
function ownDoc(node: ts.Node): string {
  const blocks = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  return withoutLinks(blocks.map((block) => ts.getTextOfJSDocComment(block.comment) ?? "").join("\n"));
}

/** `{@link X}` as `X`: the schema's descriptions are markdown, read in every language. */
function withoutLinks(text: string): string {
  return text.replace(/\{@link\s+([^}\s|]+)[^}]*\}/g, "$1").trim();
}

function namesOf(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText());
  if (
    (ts.isInterfaceDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isFunctionDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement)) &&
    statement.name
  )
    return [statement.name.text];
  return [];
}
