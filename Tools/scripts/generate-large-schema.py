#!/usr/bin/env python3
"""Writes the large GraphQL schema the code generator is tested and measured on.

A commerce-and-content schema of 1,200 types, the same on every run (no randomness): 520 object
types in 13 domains, 100 interfaces (each implemented by several object types, some extending
another interface), 80 unions, 220 input objects (nested, some recursive through lists), 200
enums (some values deprecated), 80 custom scalars, with descriptions, deprecated fields,
arguments with defaults, and chains of object types nine levels deep. About 1 MB of SDL.

Usage: Tools/scripts/generate-large-schema.py OUTPUT.graphqls
"""
import sys

DOMAINS = ["Catalog", "Order", "Customer", "Shipping", "Payment", "Review", "Content", "Media",
           "Inventory", "Marketing", "Support", "Analytics", "Account"]
NOUNS = ["Item", "Record", "Entry", "Detail", "Summary", "Event", "Policy", "Rule", "Group",
         "Profile", "Snapshot", "Batch", "Channel", "Window", "Slot", "Note", "Link", "Tag",
         "Stage", "Plan", "Quote", "Claim", "Ledger", "Region", "Segment", "Badge", "Score",
         "Trace", "Token", "Filter", "Metric", "Bundle", "Feed", "Report", "Task", "Queue",
         "Thread", "Draft", "Asset", "Locale"]
ATTRIBUTES = ["title", "summary", "code", "status", "weight", "height", "width", "depth", "position",
              "priority", "score", "level"]
ADJECTIVES = ["primary", "secondary", "current", "previous", "default", "archived", "pending",
              "public", "internal", "latest"]

OBJECTS = [f"{domain}{noun}" for domain in DOMAINS for noun in NOUNS][:520]
INTERFACES = [f"{domain}{noun}Node" for domain in DOMAINS for noun in NOUNS[:8]][:100]
UNIONS = [f"{domain}{noun}Result" for domain in DOMAINS for noun in NOUNS[8:15]][:80]
INPUTS = [f"{domain}{noun}Input" for domain in DOMAINS for noun in NOUNS[:17]][:220]
ENUMS = [f"{domain}{noun}Kind" for domain in DOMAINS for noun in NOUNS[:16]][:200]
SCALARS = [f"{domain}{unit}" for domain in DOMAINS for unit in
           ["Money", "Timestamp", "Url", "Percent", "Duration", "Json", "Sku"]][:80]


def lower(name):
    return name[0].lower() + name[1:]


def description(text):
    return f'"""\n{text}\n"""\n'


def object_type(index, name):
    interfaces = ["Node"] + [INTERFACES[(index * 7 + k) % len(INTERFACES)] for k in range(index % 3)]
    interfaces = list(dict.fromkeys(interfaces))
    lines = [f"  id: ID!", f"  name: String!",
             f'  "When the {lower(name)} was last changed."', f"  updatedAt: {SCALARS[index % len(SCALARS)]}!",
             f"  kind: {ENUMS[index % len(ENUMS)]}",
             f"  price: {SCALARS[(index * 3) % len(SCALARS)]}",
             f"  count: Int!", f"  ratio: Float", f"  active: Boolean!",
             f"  tags: [String!]!",
             f'  legacyCode: String @deprecated(reason: "Use id.")']
    # Documented attributes of every kind of output type, to make the schema as large as real ones.
    kinds = ["String", "Int", "Float", "Boolean", ENUMS[(index * 3 + 1) % len(ENUMS)],
             SCALARS[(index * 7 + 2) % len(SCALARS)], "[String!]"]
    for k, attribute in enumerate(ATTRIBUTES):
        kind = kinds[(index + k) % len(kinds)]
        lines.append(f'  "The {attribute} of this {lower(name)}, as the {DOMAINS[(index + k) % len(DOMAINS)]} team records it."')
        lines.append(f"  {attribute}: {kind}" + ("!" if (index + k) % 3 == 0 and not kind.startswith("[") else ""))
    for interface in interfaces[1:]:
        lines += interface_fields(INTERFACES.index(interface))
    # Deep chains: each object points to the next one, nine in a row, then back.
    following = OBJECTS[index + 1] if (index + 1) % 10 != 0 and index + 1 < len(OBJECTS) else None
    if following:
        lines.append(f"  next: {following}")
    lines.append(f"  related(first: Int = 10, after: String): [{OBJECTS[(index * 13 + 5) % len(OBJECTS)]}!]!")
    lines.append(f"  result: {UNIONS[index % len(UNIONS)]}")
    lines.append(f"  owner: {INTERFACES[index % len(INTERFACES)]}")
    for k, adjective in enumerate(ADJECTIVES[:4]):
        lines.append(f"  {adjective}{NOUNS[(index + k) % len(NOUNS)]}: {OBJECTS[(index * 5 + k * 31 + 1) % len(OBJECTS)]}")
    implements = " & ".join(interfaces)
    return (description(f"A {lower(name)} of the {DOMAINS[index // len(NOUNS) % len(DOMAINS)]} domain.")
            + f"type {name} implements {implements} {{\n" + "\n".join(lines) + "\n}\n")


def interface_fields(index):
    return [f"  {lower(INTERFACES[index])}Label: String!", f"  {lower(INTERFACES[index])}Weight: Int"]


def interface_type(index, name):
    lines = ["  id: ID!"] + interface_fields(index)
    return description(f"Anything that is a {name}.") + f"interface {name} implements Node {{\n" + "\n".join(lines) + "\n}\n"


def implementers(interface):
    index = INTERFACES.index(interface)
    return [name for i, name in enumerate(OBJECTS)
            if any((i * 7 + k) % len(INTERFACES) == index for k in range(i % 3))]


def main():
    out = ['"""\nThe large schema of the code generator\'s tests (Tools/scripts/generate-large-schema.py).\n"""\n'
           "schema { query: Query mutation: Mutation subscription: Subscription }\n",
           'interface Node {\n  id: ID!\n}\n']
    for name in SCALARS:
        out.append(description(f"A {name} value, as a string.") + f"scalar {name}\n")
    for index, name in enumerate(ENUMS):
        values = [f"VALUE_{k}" for k in range(4 + index % 6)]
        lines = [f"  {value}" for value in values]
        if index % 5 == 0:
            lines.append('  RETIRED_VALUE @deprecated(reason: "No longer sent.")')
        out.append(description(f"The kinds of {name[:-4].lower()}.") + f"enum {name} {{\n" + "\n".join(lines) + "\n}\n")
    for index, name in enumerate(INTERFACES):
        if implementers(name):
            out.append(interface_type(index, name))
        else:
            # An interface nothing implements would be of no use: give it its own implementer.
            out.append(interface_type(index, name))
            out.append(f"type {name}Impl implements {name} & Node {{\n  id: ID!\n" + "\n".join(interface_fields(index)) + "\n}\n")
    for index, name in enumerate(OBJECTS):
        out.append(object_type(index, name))
    for index, name in enumerate(UNIONS):
        members = list(dict.fromkeys(OBJECTS[(index * 11 + k * 37) % len(OBJECTS)] for k in range(2 + index % 4)))
        out.append(description(f"What a {lower(name)} may be.") + f"union {name} = " + " | ".join(members) + "\n")
    for index, name in enumerate(INPUTS):
        lines = ["  name: String!", "  note: String", f"  kind: {ENUMS[index % len(ENUMS)]}",
                 f"  amount: {SCALARS[index % len(SCALARS)]}", "  limit: Int = 20", "  tags: [String!]"]
        if index + 1 < len(INPUTS):
            lines.append(f"  nested: {INPUTS[index + 1]}")
        lines.append(f"  children: [{name}!]")
        out.append(description(f"What a {lower(name)} sets.") + f"input {name} {{\n" + "\n".join(lines) + "\n}\n")
    query = ["  node(id: ID!): Node"]
    for index, name in enumerate(OBJECTS):
        query.append(f"  {lower(name)}(id: ID!): {name}")
        if index % 4 == 0:
            query.append(f"  {lower(name)}List(filter: {INPUTS[index % len(INPUTS)]}, first: Int = 20): [{name}!]!")
    for name in UNIONS:
        query.append(f"  search{name}(text: String!): [{name}!]!")
    mutation = [f"  save{name[:-5]}(input: {name}!): {OBJECTS[index % len(OBJECTS)]}!" for index, name in enumerate(INPUTS)]
    subscription = [f"  {lower(name)}Changed(id: ID!): {name}!" for name in OBJECTS[:40]]
    out.append("type Query {\n" + "\n".join(query) + "\n}\n")
    out.append("type Mutation {\n" + "\n".join(mutation) + "\n}\n")
    out.append("type Subscription {\n" + "\n".join(subscription) + "\n}\n")
    text = "\n".join(out)
    with open(sys.argv[1], "w") as handle:
        handle.write(text)
    types = len(SCALARS) + len(ENUMS) + len(INTERFACES) + len(OBJECTS) + len(UNIONS) + len(INPUTS) + 4
    print(f"{sys.argv[1]}: {types}+ types, {len(text):,} bytes")


if __name__ == "__main__":
    main()
