"""Every public function and class has a docstring with an example, and
every example runs as shown (the docstrings are the reference that
``help()`` prints)."""

import doctest
import inspect

import pytest

import grundy

PUBLIC = [name for name in grundy.__all__ if not name.startswith("__")]


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring_has_a_working_example(name):
    obj = getattr(grundy, name)
    doc = inspect.getdoc(obj)
    assert doc, f"{name} has no docstring"
    examples = doctest.DocTestParser().get_examples(doc)
    assert examples, f"{name}'s docstring has no example"
    test = doctest.DocTestParser().get_doctest(doc, {}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{name}'s examples fail (see the output above)"


def test_the_package_docstring_runs():
    test = doctest.DocTestParser().get_doctest(grundy.__doc__, {}, "grundy", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert test.examples and runner.failures == 0


@pytest.mark.parametrize(
    "cls", [c for c in (getattr(grundy, n) for n in PUBLIC) if inspect.isclass(c)]
)
def test_public_methods_and_properties_are_documented(cls):
    for attr, value in vars(cls).items():
        if attr.startswith("_"):
            continue
        assert inspect.getdoc(value), f"{cls.__name__}.{attr} has no docstring"


def test_help_of_octal_shows_the_signature_and_an_example():
    text = pydoc_text(grundy.octal)
    assert "octal(code, *, to=None, threads=None, online=False, progress=None)" in text
    assert ">>> kayles = grundy.octal" in text


def pydoc_text(obj):
    import pydoc

    return pydoc.plain(pydoc.render_doc(obj))


@pytest.mark.parametrize("readme", ["crates/grundy-py/README.md", "README.md"])
def test_the_readme_examples_run(readme):
    from pathlib import Path

    readme = Path(__file__).resolve().parents[3] / readme
    # The fences end the examples' expected output.
    text = "\n".join("" if line.startswith("```") else line for line in readme.read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(readme), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples and runner.failures == 0


def test_the_stubs_describe_the_module():
    import ast
    from pathlib import Path

    stub = Path(grundy.__file__).with_name("_grundy.pyi")
    tree = ast.parse(stub.read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    assert set(PUBLIC) <= names, set(PUBLIC) - names
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for name in PUBLIC:
        runtime = getattr(grundy, name)
        if not inspect.isclass(runtime) or issubclass(runtime, BaseException):
            continue
        declared = {f.name for f in classes[name].body if isinstance(f, ast.FunctionDef)}
        public = {a for a in vars(runtime) if not a.startswith("__")}
        assert public <= declared, (name, public - declared)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name, node in functions.items():
        runtime = getattr(grundy, name)
        stubbed = [a.arg for a in node.args.args + node.args.kwonlyargs]
        assert stubbed == list(inspect.signature(runtime).parameters), name


def test_the_stubs_claim_only_what_the_runtime_has():
    # A stub class deriving from an abstract collection promises its mixin
    # methods (Sequence: index, count): the runtime class must be one. Every
    # method a stub class declares exists at runtime (iteration and `in`,
    # declared for the type checkers, go through __getitem__), and no stub
    # class can be subclassed where the runtime refuses it.
    import ast
    import collections.abc
    from pathlib import Path

    stub = Path(grundy.__file__).with_name("_grundy.pyi")
    tree = ast.parse(stub.read_text())
    through_getitem = {"__iter__", "__contains__"}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not hasattr(grundy, node.name):
            continue
        runtime = getattr(grundy, node.name)
        for base in node.bases:
            name = ast.unparse(base).split("[")[0]
            abc = getattr(collections.abc, name, None)
            if abc is not None:
                assert issubclass(runtime, abc), (node.name, name)
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                if item.name in through_getitem:
                    assert hasattr(runtime, "__getitem__"), (node.name, item.name)
                    continue
                assert hasattr(runtime, item.name), (node.name, item.name)
        if issubclass(runtime, BaseException):
            continue
        with pytest.raises(TypeError):
            type("Sub", (runtime,), {})
        decorators = [ast.unparse(d) for d in node.decorator_list]
        assert "final" in decorators, node.name
    values = grundy.graph(3, [(0, 1)]).values
    assert list(values) == [1, 0, 0] and 1 in values and 2 not in values
