// FOR_ITER: the iterators compiled code steps inline (lists, tuples, ranges, and the
// enumerates, dict item, key and value iterators and zips of the loops the fusion passes marked),
// everything else through a64_for_iter.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// FOR_ITER: a list, tuple or range iterator with items left steps inline; anything else,
// and the step that finds an iterator exhausted (which also releases its sequence), through
// a64_for_iter.
void Lowerer::LowerForIter(const Instr& in) {
  const Operand iter = V(LirReg(in.args[0]));
  const int dst = LirReg(in.dst);
  const auto generic = [&] {
    SetPrevInstr(in.bc);
    Call(Helper::a64_for_iter, {iter}, dst);
    DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(1));
  };
  if (rt_.py_list_iter_type == 0 || rt_.py_tuple_iter_type == 0 || rt_.py_range_iter_type == 0) {
    return generic();
  }
  if (in.op == Op::kForIterOfEnumerate && rt_.py_enum_type != 0) {
    return FastOrGeneric(
        Decision::kLowerForIterInline, in,
        [&](int slow) { NextEnumerateValue(in, iter, dst, slow); }, generic);
  }
  if (in.op == Op::kForIterOfDictItems && rt_.py_dict_item_iter_type != 0) {
    return FastOrGeneric(
        Decision::kLowerForIterInline, in, [&](int slow) { NextDictItem(in, iter, dst, slow); },
        generic);
  }
  const bool values = in.op == Op::kForIterOfDictValues;
  if ((in.op == Op::kForIterOfDictKeys && rt_.py_dict_key_iter_type != 0) ||
      (values && rt_.py_dict_value_iter_type != 0)) {
    return FastOrGeneric(
        Decision::kLowerForIterInline, in,
        [&](int slow) { NextDictKeyOrValue(in, iter, values, dst, slow); }, generic);
  }
  if (in.op == Op::kForIterOfZip && rt_.py_zip_type != 0) {
    return FastOrGeneric(
        Decision::kLowerForIterInline, in, [&](int slow) { NextZipPair(in, iter, dst, slow); },
        generic);
  }
  FastOrGeneric(
      Decision::kLowerForIterInline, in,
      [&](int slow) {
        const int type = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
        const int list = NewBlock(), other = NewBlock(), tuple = NewBlock(), range = NewBlock();
        const int done = NewBlock();
        Emit(BrInstr(Cond::kEq, Type::kPtr, V(type), Imm(rt_.py_list_iter_type), list, other));
        cur_ = other;
        Emit(BrInstr(Cond::kEq, Type::kPtr, V(type), Imm(rt_.py_tuple_iter_type), tuple, range));
        cur_ = list;
        NextSequenceItem(iter, offsetof(PyListObject, ob_item), true, dst, slow);
        Jmp(done);
        cur_ = tuple;
        NextSequenceItem(iter, offsetof(PyTupleObject, ob_item), false, dst, slow);
        Jmp(done);
        cur_ = range;
        SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_range_iter_type), slow);
        NextRangeValue(in, iter, slow);
        Jmp(done);
        cur_ = done;
      },
      generic);
}

// A list or tuple iterator's next item into `dst` (a new reference), the index advanced;
// `slow` when it has none left. `items_at`: where the sequence keeps its items (`indirect`:
// a pointer to them there, as a list has).
void Lowerer::NextSequenceItem(Operand iter, int64_t items_at, bool indirect, int dst, int slow) {
  const int seq = Load(iter, offsetof(SequenceIterLayout, it_seq), Type::kPtr);
  SlowIf(Cond::kEq, Type::kPtr, V(seq), Operand::Imm(0), slow);
  const int index = Load(iter, offsetof(SequenceIterLayout, it_index), Type::kI64);
  const int size = Load(V(seq), offsetof(PyVarObject, ob_size), Type::kI64);
  SlowIf(Cond::kSge, Type::kI64, V(index), V(size), slow);
  const int items = indirect ? Load(V(seq), items_at, Type::kPtr)
                             : Binary(lir::Op::kAdd, V(seq), Operand::Imm(items_at), Type::kPtr);
  Mov(V(TakeSequenceItem(iter, items, index)), Type::kPtr, dst);
}

// ForIterOfEnumerate's step (fuse_known_iterators.cc): an exact enumerate's next (index,
// item) into `dst` (a new reference), as enum_next makes it, where it steps a list or tuple
// iterator with an item left, counts in en_index, and alone holds its result tuple, which the
// collector tracks. Then the item is taken, the index boxed, and both go into the result tuple
// in place of the last two, which are released last. Anything else jumps to `slow` before
// anything changes; so does an untracked tuple, which enum_next tracks again. The inner
// iterator is tested first: an enumerate over a str, a generator or a file fails there, at
// the cheapest point. About 50 guest instructions a step where a64_for_iter, enum_next,
// listiter_next and PyLong_FromSsize_t take about 90, with three calls fewer.
void Lowerer::NextEnumerateValue(const Instr& in, Operand iter, int dst, int slow) {
  const int type = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_enum_type), slow);
  const int sit = Load(iter, offsetof(EnumerateLayout, en_sit), Type::kPtr);
  const int at = out_.NewVReg(Type::kI64);
  const int items = SequenceIterItems(V(sit), at, slow);
  const int index = Load(iter, offsetof(EnumerateLayout, en_index), Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(index), Operand::Imm(PY_SSIZE_T_MAX), slow);
  const int result = ReusableResultTuple(iter, offsetof(EnumerateLayout, en_result), slow);
  const int boxed = BoxIndex(in, index);  // may raise: nothing has changed yet
  const int item = TakeSequenceItem(V(sit), items, at);
  Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
        offsetof(EnumerateLayout, en_index), Type::kI64);
  RefillResultTuple(in, result, boxed, item, dst);
}

// ForIterOfZip's step (fuse_known_iterators.cc): an exact zip of two list or tuple iterators,
// not one iterator twice, each with an item left, that alone holds its result tuple, which the
// collector tracks, and whose first item something else holds too: both items taken into the result
// tuple as zip_next puts them there, the last two released. zip_next releases the first old item
// before it steps the second iterator; here both are stepped first. With the first old item
// held elsewhere its release runs no code, so nothing can tell. Anything else, including the
// step that finds either iterator at its end (zip(strict=True) raises there), jumps to `slow`
// before anything changes. The inner iterators are tested first, as NextEnumerateValue tests
// its one. About 60 guest instructions a step where a64_for_iter, zip_next and two
// listiter_next take about 95, with three calls fewer.
void Lowerer::NextZipPair(const Instr& in, Operand iter, int dst, int slow) {
  const int type = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_zip_type), slow);
  const int size = Load(iter, offsetof(ZipLayout, tuplesize), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(size), Operand::Imm(2), slow);
  const int its = Load(iter, offsetof(ZipLayout, ittuple), Type::kPtr);
  int items[2], at[2], sits[2];
  for (int i = 0; i < 2; i++) {
    sits[i] = Load(V(its), offsetof(PyTupleObject, ob_item) + 8 * i, Type::kPtr);
  }
  // zip(it, it) (pairs of one iterator): the second step would read the index the first moved
  SlowIf(Cond::kEq, Type::kPtr, V(sits[0]), V(sits[1]), slow);
  for (int i = 0; i < 2; i++) {
    at[i] = out_.NewVReg(Type::kI64);
    items[i] = SequenceIterItems(V(sits[i]), at[i], slow);
  }
  const int result = ReusableResultTuple(iter, offsetof(ZipLayout, result), slow);
  const int old_first = Load(V(result), offsetof(PyTupleObject, ob_item), Type::kPtr);
  const int old_refs = Load(V(old_first), offsetof(PyObject, ob_refcnt), Type::kI64);
  SlowIf(Cond::kSle, Type::kI64, V(old_refs), Operand::Imm(1), slow);
  int taken[2];
  for (int i = 0; i < 2; i++) taken[i] = TakeSequenceItem(V(sits[i]), items[i], at[i]);
  RefillResultTuple(in, result, taken[0], taken[1], dst);
}

// The item at `at` of `items` (SequenceIterItems) with a new reference, the iterator `sit`
// moved past it.
int Lowerer::TakeSequenceItem(Operand sit, int items, int at) {
  const int offset = Binary(lir::Op::kShl, V(at), Operand::Imm(3), Type::kI64);
  const int item = Load(V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
  Incref(V(item));
  Store(V(Binary(lir::Op::kAdd, V(at), Operand::Imm(1), Type::kI64)), sit,
        offsetof(SequenceIterLayout, it_index), Type::kI64);
  return item;
}

// ForIterOfDictItems' step (fuse_known_iterators.cc): an exact dict item iterator's next (key,
// value) into `dst` (a new reference), as dictiter_iternextitem makes it, where its dict has
// not changed size, keeps its values in its keys' entries (no split table), has an entry with a
// value at di_pos or after it, the iterator has items left to give, and it alone holds its
// result tuple, which the collector tracks. Then di_pos passes the entry, the key and value go
// into the result tuple and the last two are released. Anything else, including the step that
// finds no entry left (which lets go of the dict) and a size or key change (RuntimeError),
// jumps to `slow` before anything changes. About 55 guest instructions a step where
// a64_for_iter and dictiter_iternextitem take about 75, with two calls fewer.
void Lowerer::NextDictItem(const Instr& in, Operand iter, int dst, int slow) {
  const DictIterState at = CheckDictIter(in, iter, rt_.py_dict_item_iter_type, slow);
  const int result = ReusableResultTuple(iter, offsetof(DictIterLayout, di_result), slow);
  const int value = out_.NewVReg(Type::kPtr);
  const int entry = NextDictEntry(V(at.dict), iter, value, slow);
  const int key = Load(V(entry), offsetof(PyDictKeysObject, dk_indices), Type::kPtr);
  Incref(V(key));
  Incref(V(value));
  CountDictIterStep(iter, at);
  RefillResultTuple(in, result, key, value, dst);
}

// ForIterOfDictKeys' and ForIterOfDictValues' step (fuse_known_iterators.cc): an exact dict key
// (`values` false) or value iterator's next key or value into `dst` (a new reference), as
// dictiter_iternextkey and dictiter_iternextvalue give it, under NextDictItem's conditions but
// the result tuple, which these iterators do not have. About 40 guest instructions a step where
// a64_for_iter and the C step take about 60, with two calls fewer.
void Lowerer::NextDictKeyOrValue(const Instr& in, Operand iter, bool values, int dst, int slow) {
  const DictIterState at = CheckDictIter(
      in, iter, values ? rt_.py_dict_value_iter_type : rt_.py_dict_key_iter_type, slow);
  const int value = out_.NewVReg(Type::kPtr);
  const int entry = NextDictEntry(V(at.dict), iter, value, slow);
  const int item =
      values ? value : Load(V(entry), offsetof(PyDictKeysObject, dk_indices), Type::kPtr);
  Incref(V(item));
  CountDictIterStep(iter, at);
  Mov(V(item), Type::kPtr, dst);
}

// What every inline dict iterator step tests before anything changes: `iter` is an exact
// iterator of `type` over a dict it still holds, with the size it saw (di_used), whose values are
// in its keys' entries (no split table), and it has items left to give (`len`); else `slow`.
// 3.11's C steps raise RuntimeError there (a size change) or let go of the dict (no item left).
Lowerer::DictIterState Lowerer::CheckDictIter(const Instr& in, Operand iter, uint64_t type,
                                              int slow) {
  const int actual = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(actual), Imm(type), slow);
  const int dict = Load(iter, offsetof(DictIterLayout, di_dict), Type::kPtr);
  SlowIf(Cond::kEq, Type::kPtr, V(dict), Operand::Imm(0), slow);
  const int used = Load(V(dict), offsetof(PyDictObject, ma_used), Type::kI64);
  const int expected = Load(iter, offsetof(DictIterLayout, di_used), Type::kI64);
  const int values = Load(V(dict), offsetof(PyDictObject, ma_values), Type::kPtr);
  SlowIfEither(Cond::kNe, Type::kI64, V(used), V(expected), Cond::kNe, V(values), Operand::Imm(0),
               slow, in.bc);
  const int left = Load(iter, offsetof(DictIterLayout, len), Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(left), Operand::Imm(0), slow);
  return DictIterState{dict, left};
}

// One item given: the iterator's `len` less one.
void Lowerer::CountDictIterStep(Operand iter, const DictIterState& at) {
  Store(V(Binary(lir::Op::kSub, V(at.left), Operand::Imm(1), Type::kI64)), iter,
        offsetof(DictIterLayout, len), Type::kI64);
}

// The address, less the entries' offset in the keys object (dk_indices), of the key of the
// first entry at or after the dict item iterator `iter`'s di_pos whose value (into `value`) is
// set, in the combined table of `dict`; di_pos moves past it. `slow` when there is none
// (nothing stored).
// 3.11's unicode entries are a key and a value (16 bytes), its general ones a hash, a key and a
// value (24): either way the value follows the key. dk_kind is 0 (general) or 1 (unicode) in
// a combined table; 2 (split) takes `slow`.
int Lowerer::NextDictEntry(Operand dict, Operand iter, int value, int slow) {
  const int keys = Load(dict, offsetof(PyDictObject, ma_keys), Type::kPtr);
  const int kind = ZExt(V(Load(V(keys), offsetof(PyDictKeysObject, dk_kind), Type::kI8)));
  SlowIf(Cond::kUgt, Type::kI64, V(kind), Operand::Imm(DICT_KEYS_UNICODE), slow);
  static_assert(DICT_KEYS_GENERAL == 0 && DICT_KEYS_UNICODE == 1, "kind 1 is 8 bytes less");
  static_assert(sizeof(PyDictKeyEntry) == 24 && sizeof(PyDictUnicodeEntry) == 16, "entries");
  static_assert(
      offsetof(PyDictKeyEntry, me_key) == 8 && offsetof(PyDictUnicodeEntry, me_key) == 0 &&
          offsetof(PyDictKeyEntry, me_value) == 16 && offsetof(PyDictUnicodeEntry, me_value) == 8,
      "the key 8 bytes into a general entry, the value 8 bytes after the key");
  const int less = Binary(lir::Op::kShl, V(kind), Operand::Imm(3), Type::kI64);
  const int stride =
      Binary(lir::Op::kSub, V(Mov(Operand::Imm(24), Type::kI64)), V(less), Type::kI64);
  const int log2 =
      ZExt(V(Load(V(keys), offsetof(PyDictKeysObject, dk_log2_index_bytes), Type::kI8)));
  const int indices =
      Binary(lir::Op::kShl, V(Mov(Operand::Imm(1), Type::kI64)), V(log2), Type::kI64);
  const int first = Binary(lir::Op::kAdd, V(keys), V(indices), Type::kPtr);  // entry 0's hash
  const int keys_at = Binary(lir::Op::kAdd, V(first), Operand::Imm(8), Type::kPtr);
  Binary(lir::Op::kSub, V(keys_at), V(less), Type::kPtr, keys_at);  // entry 0's key
  const int n = Load(V(keys), offsetof(PyDictKeysObject, dk_nentries), Type::kI64);
  const int i = Load(iter, offsetof(DictIterLayout, di_pos), Type::kI64);
  const int entry = out_.NewVReg(Type::kPtr);
  const int scan = NewBlock(), empty = NewBlock(), found = NewBlock();
  Jmp(scan);
  cur_ = scan;  // a deleted entry's value is NULL: passed over, as the iterator passes it
  SlowIf(Cond::kSge, Type::kI64, V(i), V(n), slow);
  const int offset = Binary(lir::Op::kMul, V(i), V(stride), Type::kI64);
  Binary(lir::Op::kAdd, V(keys_at), V(offset), Type::kPtr, entry);
  Load(V(entry), offsetof(PyDictKeysObject, dk_indices) + 8, Type::kPtr, value);
  Br(Cond::kEq, V(value), Operand::Imm(0), empty, found);
  cur_ = empty;
  Binary(lir::Op::kAdd, V(i), Operand::Imm(1), Type::kI64, i);
  Jmp(scan);
  cur_ = found;
  Store(V(Binary(lir::Op::kAdd, V(i), Operand::Imm(1), Type::kI64)), iter,
        offsetof(DictIterLayout, di_pos), Type::kI64);
  return entry;
}

// The result tuple at `at` in `iter` when the iterator alone holds it and the collector tracks
// it (enum_next and dictiter_iternextitem fill such a tuple again, and an untracked one they
// track again, which their own path does); else a jump to `slow`.
int Lowerer::ReusableResultTuple(Operand iter, int64_t at, int slow) {
  const int result = Load(iter, at, Type::kPtr);
  const int refs = Load(V(result), offsetof(PyObject, ob_refcnt), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(refs), Operand::Imm(1), slow);
  // _PyObject_GC_IS_TRACKED: the collector's link before the object, 0 when untracked
  const int gc_next = Load(V(result), -kGcHeadBytes, Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(gc_next), Operand::Imm(0), slow);
  return result;
}

// `result` (ReusableResultTuple) into `dst` with `first` and `second` (new references) as its
// items and the count 2 (the iterator's and dst's); its last two items released after, as the
// C steps release them (their finalizers may run code).
void Lowerer::RefillResultTuple(const Instr& in, int result, int first, int second, int dst) {
  const int old_first = Load(V(result), offsetof(PyTupleObject, ob_item), Type::kPtr);
  const int old_second = Load(V(result), offsetof(PyTupleObject, ob_item) + 8, Type::kPtr);
  Store(V(first), V(result), offsetof(PyTupleObject, ob_item), Type::kPtr);
  Store(V(second), V(result), offsetof(PyTupleObject, ob_item) + 8, Type::kPtr);
  Store(V(Mov(Operand::Imm(2), Type::kI64)), V(result), offsetof(PyObject, ob_refcnt), Type::kI64);
  Mov(V(result), Type::kPtr, dst);
  Decref(old_first, false, in.bc);
  Decref(old_second, false, in.bc);
}

// The address of the items of the sequence that `sit`, an exact list or tuple iterator, steps,
// when it has one left at its index (into `at`); else a jump to `slow`, nothing read past the
// header of anything else.
int Lowerer::SequenceIterItems(Operand sit, int at, int slow) {
  const int items = out_.NewVReg(Type::kPtr);
  const int seq = out_.NewVReg(Type::kPtr);
  const int type = Load(sit, offsetof(PyObject, ob_type), Type::kPtr);
  const int list = NewBlock(), other = NewBlock(), have = NewBlock();
  Br(Cond::kEq, V(type), Imm(rt_.py_list_iter_type), list, other, Type::kPtr);
  for (const bool tuple : {true, false}) {
    cur_ = tuple ? other : list;
    if (tuple) SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_tuple_iter_type), slow);
    Load(sit, offsetof(SequenceIterLayout, it_seq), Type::kPtr, seq);
    SlowIf(Cond::kEq, Type::kPtr, V(seq), Operand::Imm(0), slow);  // exhausted
    if (tuple) {  // the items follow the header; a list points at them
      Binary(lir::Op::kAdd, V(seq), Operand::Imm(offsetof(PyTupleObject, ob_item)), Type::kPtr,
             items);
    } else {
      Load(V(seq), offsetof(PyListObject, ob_item), Type::kPtr, items);
    }
    Jmp(have);
  }
  cur_ = have;
  Load(sit, offsetof(SequenceIterLayout, it_index), Type::kI64, at);
  const int size = Load(V(seq), offsetof(PyVarObject, ob_size), Type::kI64);
  SlowIf(Cond::kSge, Type::kI64, V(at), V(size), slow);
  return items;
}

// An enumerate's index `v` boxed into a new vreg: one of the small ints, else a64_box_int (out
// of line), whose failure leaves through `in`'s error exit.
int Lowerer::BoxIndex(const Instr& in, int v) {
  const int boxed = out_.NewVReg(Type::kPtr);
  const int small = NewBlock(), big = ColdBlock(), done = NewBlock();
  const int biased = Binary(lir::Op::kSub, V(v), Operand::Imm(kSmallIntMin), Type::kI64);
  Br(Cond::kUgt, V(biased), Operand::Imm(kSmallIntMax - kSmallIntMin), big, small);
  cur_ = small;
  SmallInt(v, boxed);
  Jmp(done);
  cur_ = big;
  SetPrevInstr(in.bc);
  Call(Helper::a64_box_int, {V(v)}, boxed);
  DeoptIf(in, Cond::kEq, V(boxed), Operand::Imm(0));
  Jmp(done);
  cur_ = done;
  return boxed;
}

// A range iterator's next value, start + index * step, boxed (BoxInt: a small int, else
// a64_box_int where rangeiter_next calls PyLong_FromLong) into in.dst; `slow` when it has
// none left.
void Lowerer::NextRangeValue(const Instr& in, Operand iter, int slow) {
  const int index = Load(iter, offsetof(RangeIterLayout, index), Type::kI64);
  const int len = Load(iter, offsetof(RangeIterLayout, len), Type::kI64);
  SlowIf(Cond::kSge, Type::kI64, V(index), V(len), slow);
  const int step = Load(iter, offsetof(RangeIterLayout, step), Type::kI64);
  const int start = Load(iter, offsetof(RangeIterLayout, start), Type::kI64);
  const int value = Binary(lir::Op::kAdd, V(start),
                           V(Binary(lir::Op::kMul, V(index), V(step), Type::kI64)), Type::kI64);
  Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
        offsetof(RangeIterLayout, index), Type::kI64);
  BoxInt(in, value);
}

}  // namespace a64jit::lower::internal
