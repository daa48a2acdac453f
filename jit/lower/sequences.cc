// The object protocol, BUILD_*, lists and tuples: unpacking, FOR_ITER over sequences and
// ranges, indexing and item stores.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// Operations that are one libpython call on their operands.
void Lowerer::LowerObjectProtocol(const Instr& in) {
  const Operand a = V(LirReg(in.args[0]));
  if (in.op == Op::kBinaryOp) {
    if (in.imm < 0 || in.imm >= kBinaryCount) throw Unsupported(-1, in.bc * 2, "BINARY_OP");
    LowerArithmetic(in);
  } else if (in.op == Op::kCompareOp) {
    LowerCompareOp(in);
  } else if (in.op == Op::kUnaryOp) {
    CallChecked(in, kUnaryHelpers[in.imm], {a});
  } else if (in.op == Op::kGetItem) {
    const bool lists = rt_.py_list_type != 0 && Allows(in, Feedback::kListInt);
    const bool tuples = rt_.py_tuple_type != 0 && Allows(in, Feedback::kTupleInt);
    // 3.11 does not specialise a str index: a site it quickened is not one
    const bool strs =
        rt_.py_str_type != 0 && rt_.ascii_char_zero != 0 && in.feedback == Feedback::kNone;
    if (lists || tuples || strs) return LowerIndex(in, lists, tuples, strs);
    // 3.11's BINARY_SUBSCR_GETITEM: the class's Python __getitem__, called directly
    SiteCache* site =
        in.feedback == Feedback::kGetItem && Take(decisions_, Decision::kLowerGetItemCached, in.bc)
            ? NewSiteCache()
            : nullptr;
    if (site != nullptr) {
      return SiteCallChecked(in, Helper::a64_getitem_cached,
                             {a, V(LirReg(in.args[1])), V(SiteAddress(site))});
    }
    CallChecked(in, Helper::PyObject_GetItem, {a, V(LirReg(in.args[1]))});
  } else if (in.op == Op::kSetItem) {
    if (rt_.py_list_type != 0 && Allows(in, Feedback::kListInt)) return LowerListStore(in);
    CallStatus(in, Helper::PyObject_SetItem, {a, V(LirReg(in.args[1])), V(LirReg(in.args[2]))});
  } else if (in.op == Op::kGetIter) {
    CallChecked(in, Helper::PyObject_GetIter, {a});
  } else {
    NoRuleIn("LowerObjectProtocol", in);
  }
}

// A family function given an op it has no rule for (routed there by mistake): failing names
// the op, where lowering it as the family's last member would compile wrong code.
[[noreturn]] void Lowerer::NoRuleIn(const char* family, const Instr& in) {
  throw std::logic_error(std::string("lowering: ") + family + " has no rule for HIR op " +
                         hir::OpName(in.op));
}

void Lowerer::BuildTupleInline(const Instr& in, int slow) {
  SetPrevInstr(in.bc);  // the allocation may collect garbage, and run finalizers
  const int tuple = Call(Helper::PyTuple_New, {Operand::Imm(static_cast<int64_t>(in.args.size()))});
  SlowIf(Cond::kEq, Type::kI64, V(tuple), Operand::Imm(0), slow);
  for (size_t i = 0; i < in.args.size(); i++) {
    Store(V(LirReg(in.args[i])), V(tuple),
          static_cast<int64_t>(offsetof(PyTupleObject, ob_item) + 8 * i), Type::kPtr);
  }
  Mov(V(tuple), Type::kPtr, LirReg(in.dst));
}

void Lowerer::LowerBuild(const Instr& in) {
  const auto count = [&] { return Operand::Imm(static_cast<int64_t>(in.args.size())); };
  if (in.op == Op::kBuildSlice) {
    return CallChecked(in, Helper::PySlice_New,
                       {V(LirReg(in.args[0])), V(LirReg(in.args[1])),
                        in.args.size() > 2 ? V(LirReg(in.args[2])) : Operand::Imm(0)});
  }
  if (in.op == Op::kFormatValue) {
    return CallChecked(
        in, Helper::a64_format_value,
        {V(LirReg(in.args[0])), in.args.size() > 1 ? V(LirReg(in.args[1])) : Operand::Imm(0),
         Operand::Imm(in.imm)});
  }
  if (in.op == Op::kBuildTuple && !in.args.empty() && in.args.size() <= kInlineTupleMax) {
    return FastOrGeneric(
        Decision::kLowerBuildTupleInline, in, [&](int slow) { BuildTupleInline(in, slow); },
        [&] {
          CallChecked(in, Helper::a64_build_tuple, {V(Spill(in.args)), count()});
        });
  }
  const int p = Spill(in.args);
  if (in.op == Op::kBuildList) return CallChecked(in, Helper::a64_build_list, {V(p), count()});
  if (in.op == Op::kBuildSet) return CallChecked(in, Helper::a64_build_set, {V(p), count()});
  if (in.op == Op::kBuildTuple) return CallChecked(in, Helper::a64_build_tuple, {V(p), count()});
  if (in.op == Op::kBuildMap) {
    return CallChecked(in, Helper::a64_build_map, {V(p), Operand::Imm(in.imm)});
  }
  if (in.op == Op::kBuildString) {
    return CallChecked(in, Helper::a64_build_string,
                       {V(p), Operand::Imm(in.imm), Operand::Imm(in.borrowed)});
  }
  if (in.op == Op::kBuildConstKeyMap) {
    return CallChecked(in, Helper::a64_build_const_key_map,
                       {V(p), Operand::Imm(in.imm), Imm(Const(in.keys_const))});
  }
  if (in.op == Op::kMakeFunction) {
    return CallChecked(in, Helper::a64_make_function,
                       {V(frame_), V(p), count(), Operand::Imm(in.imm)});
  }
  NoRuleIn("LowerBuild", in);
}

// LIST_APPEND: a comprehension's list, which only its BUILD_LIST made (an exact list, as
// 3.11's LIST_APPEND assumes too). With room, the item goes in place with a new
// reference, as _PyList_AppendTakeRef does; a full list grows in PyList_Append.
void Lowerer::LowerListAppend(const Instr& in) {
  const Operand list = V(LirReg(in.args[0]));
  const Operand item = V(LirReg(in.args[1]));
  FastOrGeneric(
      Decision::kLowerListAppendInline, in,
      [&](int slow) { AppendInPlace(list, item, true, slow); },
      [&] {
        CallStatus(in, Helper::PyList_Append, {list, item});
      });
}

void Lowerer::LowerSequence(const Instr& in) {
  if (in.op == Op::kListExtend) {
    CallStatus(in, Helper::a64_list_extend, {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
  } else if (in.op == Op::kListAppend) {
    LowerListAppend(in);
  } else if (in.op == Op::kUnpackSequence) {
    LowerUnpackSequence(in);
  } else if (in.op == Op::kUnpackEx) {
    scratch_addr_ = ScratchAddr();
    CallStatus(in, Helper::a64_unpack_ex,
               {V(LirReg(in.args[0])), Operand::Imm(in.imm & 0xff), Operand::Imm(in.imm >> 8),
                V(scratch_addr_)});
  } else if (in.op == Op::kScratchLoad) {
    Load(V(scratch_addr_), 8 * in.imm, Type::kPtr, LirReg(in.dst));
  } else {
    NoRuleIn("LowerSequence", in);
  }
}

// UNPACK_SEQUENCE n: an exact tuple or list of exactly n items is unpacked inline (3.11's
// UNPACK_SEQUENCE_TUPLE and _LIST), anything else through a64_unpack_sequence. Either way
// the items land in the scratch slot, last first, for ScratchLoad.
void Lowerer::LowerUnpackSequence(const Instr& in) {
  scratch_addr_ = ScratchAddr();
  const Operand seq = V(LirReg(in.args[0]));
  const auto generic = [&] {
    CallStatus(in, Helper::a64_unpack_sequence, {seq, Operand::Imm(in.imm), V(scratch_addr_)});
  };
  if (rt_.py_tuple_type == 0 || rt_.py_list_type == 0 || in.imm > kUnpackLoopLimit) {
    return generic();
  }
  FastOrGeneric(
      Decision::kLowerUnpackInline, in,
      [&](int slow) {
        const int items = SequenceItems(seq, in.imm, in.feedback, slow);
        if (in.imm > kInlineUnpackLimit) return CopyItemsReversed(items, in.imm);
        for (int64_t i = 0; i < in.imm; i++) {
          const int item = Load(V(items), 8 * i, Type::kPtr);
          Incref(V(item));
          Store(V(item), V(scratch_addr_), 8 * (in.imm - 1 - i), Type::kPtr);
        }
      },
      generic);
}

// The `n` items at `items`, each with a new reference, into the scratch slot last first, by
// a loop: the same 9 instructions for any n (inline, each item takes 5).
void Lowerer::CopyItemsReversed(int items, int64_t n) {
  const int from = Mov(V(items), Type::kPtr);
  const int end = Binary(lir::Op::kAdd, V(items), Operand::Imm(8 * n), Type::kPtr);
  const int to = Binary(lir::Op::kAdd, V(scratch_addr_), Operand::Imm(8 * (n - 1)), Type::kPtr);
  const int loop = NewBlock(), done = NewBlock();
  Jmp(loop);
  cur_ = loop;
  const int item = Load(V(from), 0, Type::kPtr);
  Incref(V(item));
  Store(V(item), V(to), 0, Type::kPtr);
  Binary(lir::Op::kAdd, V(from), Operand::Imm(8), Type::kPtr, from);
  Binary(lir::Op::kSub, V(to), Operand::Imm(8), Type::kPtr, to);
  Emit(BrInstr(Cond::kNe, Type::kI64, V(from), V(end), loop, done));
  cur_ = done;
}

// The address of `seq`'s first item when it is an exact tuple or list of `n` items, else a
// jump to `slow`. Feedback kTuple or kList (UNPACK_SEQUENCE_TUPLE, _LIST) tests that type
// alone.
int Lowerer::SequenceItems(Operand seq, int64_t n, Feedback seen, int slow) {
  const int items =
      FirstItemAddress(seq, seen != Feedback::kTuple, seen != Feedback::kList, true, slow);
  const int size = Load(seq, offsetof(PyVarObject, ob_size), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(size), Operand::Imm(n), slow);
  return items;
}

// The address of the first item of `seq` when it is an exact list (if `lists`) or tuple (if
// `tuples`; tested first when `tuple_first`); any other type jumps to `other` before anything
// else of it is read. Both keep their length in ob_size.
int Lowerer::FirstItemAddress(Operand seq, bool lists, bool tuples, bool tuple_first, int other) {
  const int items = out_.NewVReg(Type::kPtr);
  const int type = Load(seq, offsetof(PyObject, ob_type), Type::kPtr);
  const int have = NewBlock();
  for (const bool tuple : {tuple_first, !tuple_first}) {
    if (!(tuple ? tuples : lists)) continue;
    const int is = NewBlock(), is_not = NewBlock();
    Br(Cond::kEq, V(type), Imm(tuple ? rt_.py_tuple_type : rt_.py_list_type), is, is_not,
       Type::kPtr);
    cur_ = is;
    if (tuple) {  // the items follow the header; a list points at them
      Binary(lir::Op::kAdd, seq, Operand::Imm(offsetof(PyTupleObject, ob_item)), Type::kPtr, items);
    } else {
      Load(seq, offsetof(PyListObject, ob_item), Type::kPtr, items);
    }
    Jmp(have);
    cur_ = is_not;
  }
  Jmp(other);
  cur_ = have;
  return items;
}

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
  const int offset = Binary(lir::Op::kShl, V(index), Operand::Imm(3), Type::kI64);
  const int item = Load(V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
  Incref(V(item));
  Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
        offsetof(SequenceIterLayout, it_index), Type::kI64);
  Mov(V(item), Type::kPtr, dst);
}

// ForIterOfEnumerate's step (fuse_enumerate_loops.cc): an exact enumerate's next (index,
// item) into `dst` (a new reference), as enum_next makes it, where it steps a list or tuple
// iterator with an item left, counts in en_index, and alone holds its result tuple, which the
// collector tracks. Then the item is taken, the index boxed, and both go into the result tuple
// in place of the last two, which are released last. Anything else jumps to `slow` before
// anything changes; so does an untracked tuple, which enum_next tracks again. About 50 guest
// instructions a step where a64_for_iter, enum_next, listiter_next and PyLong_FromSsize_t take
// about 90, with three calls fewer.
void Lowerer::NextEnumerateValue(const Instr& in, Operand iter, int dst, int slow) {
  const int type = Load(iter, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_enum_type), slow);
  const int index = Load(iter, offsetof(EnumerateLayout, en_index), Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(index), Operand::Imm(PY_SSIZE_T_MAX), slow);
  const int result = Load(iter, offsetof(EnumerateLayout, en_result), Type::kPtr);
  const int refs = Load(V(result), offsetof(PyObject, ob_refcnt), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(refs), Operand::Imm(1), slow);
  // _PyObject_GC_IS_TRACKED: the collector's link before the object, 0 when untracked
  const int gc_next = Load(V(result), -kGcHeadBytes, Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(gc_next), Operand::Imm(0), slow);
  const int sit = Load(iter, offsetof(EnumerateLayout, en_sit), Type::kPtr);
  const int at = out_.NewVReg(Type::kI64);
  const int items = SequenceIterItems(V(sit), at, slow);
  const int boxed = BoxIndex(in, index);  // may raise: nothing has changed yet
  const int offset = Binary(lir::Op::kShl, V(at), Operand::Imm(3), Type::kI64);
  const int item = Load(V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
  Incref(V(item));
  Store(V(Binary(lir::Op::kAdd, V(at), Operand::Imm(1), Type::kI64)), V(sit),
        offsetof(SequenceIterLayout, it_index), Type::kI64);
  Store(V(Binary(lir::Op::kAdd, V(index), Operand::Imm(1), Type::kI64)), iter,
        offsetof(EnumerateLayout, en_index), Type::kI64);
  const int old_index = Load(V(result), offsetof(PyTupleObject, ob_item), Type::kPtr);
  const int old_item = Load(V(result), offsetof(PyTupleObject, ob_item) + 8, Type::kPtr);
  Store(V(boxed), V(result), offsetof(PyTupleObject, ob_item), Type::kPtr);
  Store(V(item), V(result), offsetof(PyTupleObject, ob_item) + 8, Type::kPtr);
  Store(V(Mov(Operand::Imm(2), Type::kI64)), V(result), offsetof(PyObject, ob_refcnt), Type::kI64);
  Mov(V(result), Type::kPtr, dst);
  Decref(old_index, false, in.bc);
  Decref(old_item, false, in.bc);
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

// The pointer at `at`, into `dst` (or a new vreg).
int Lowerer::LoadItem(const ItemAddress& at, int dst) {
  lir::Instr in;
  in.op = lir::Op::kLoad;
  in.dst = dst >= 0 ? dst : out_.NewVReg(Type::kPtr);
  AddressOf(at, in);
  return Emit(std::move(in)).dst;
}

void Lowerer::StoreItem(Operand value, const ItemAddress& at) {
  lir::Instr in;
  in.op = lir::Op::kStore;
  in.store_type = Type::kPtr;
  in.args = {value};
  AddressOf(at, in);
  Emit(std::move(in));
}

void Lowerer::AddressOf(const ItemAddress& at, lir::Instr& in) {
  in.base = V(at.items);
  if (at.index >= 0) {
    in.index = V(at.index);
    in.scale = at.scale;
  }
  in.disp = at.disp;
}

// Where seq[i] is (in.args[0], in.args[1]) when the container is an exact list (if
// `lists`) or tuple (if `tuples`) and the index an int of at most one digit with
// 0 <= i < len; else a jump to `slow`. One unsigned compare against the length rejects
// negative indexes too. A constant index (`t[1]`) is compared as an immediate and becomes
// the access's displacement; any other is the access's scaled index register: one load
// or store, not a shift, an add and the access.
Lowerer::ItemAddress Lowerer::ItemSlot(const Instr& in, int slow, int other, bool lists,
                                       bool tuples) {
  const Operand seq = V(LirReg(in.args[0]));
  const int items = FirstItemAddress(seq, lists, tuples, false, other);
  const Operand index = SmallIntOperand(in.args[1], slow);
  const int size = Load(seq, offsetof(PyVarObject, ob_size), Type::kI64);
  if (index.is_imm() && index.imm >= 0 && index.imm < kConstantIndexLimit) {
    SlowIf(Cond::kUle, Type::kI64, V(size), index, slow);
    return ItemAddress{items, -1, 8 * index.imm};
  }
  const int i = index.is_vreg() ? index.vreg : Mov(index, Type::kI64);
  SlowIf(Cond::kUge, Type::kI64, V(i), V(size), slow);
  return ItemAddress{items, i, 0};
}

// container[i] = value: for a list slot (ItemSlot), the value stored and the old item
// released inline (3.11's STORE_SUBSCR_LIST_INT); anything else through PyObject_SetItem.
void Lowerer::LowerListStore(const Instr& in) {
  const Operand value = V(LirReg(in.args[2]));
  FastOrGeneric(
      Decision::kLowerListStoreInline, in,
      [&](int slow) {
        const ItemAddress slot = ItemSlot(in, slow, slow, true, false);
        Incref(value);
        const int old = LoadItem(slot);
        StoreItem(value, slot);
        if (Planted(decisions_, Plant::kDropDecref)) return;
        Decref(old, false, in.bc, IsFloatLike(in.args[2]));
      },
      [&] {
        CallStatus(in, Helper::PyObject_SetItem,
                   {V(LirReg(in.args[0])), V(LirReg(in.args[1])), value});
      });
}

// container[i]: for a list or tuple slot (ItemSlot: those `lists` and `tuples` allow), the
// item, inline (3.11's BINARY_SUBSCR_LIST_INT and BINARY_SUBSCR_TUPLE_INT); anything else
// through PyObject_GetItem.
void Lowerer::LowerIndex(const Instr& in, bool lists, bool tuples, bool strs) {
  FastOrGeneric(
      Decision::kLowerListIndexInline, in,
      [&](int slow) {
        const int not_sequence = strs ? NewBlock() : slow, done = NewBlock();
        if (lists || tuples) {
          const ItemAddress slot = ItemSlot(in, slow, not_sequence, lists, tuples);
          const int item = LoadItem(slot);
          Incref(V(item));
          Mov(V(item), Type::kPtr, LirReg(in.dst));
          Jmp(done);
        } else {
          Jmp(not_sequence);
        }
        if (strs) {
          cur_ = not_sequence;
          StrCharAt(in, slow);
          Jmp(done);
        }
        cur_ = done;
      },
      [&] {
        CallChecked(in, Helper::PyObject_GetItem, {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
      });
}

// str[i] for an exact compact ASCII str and 0 <= i < len, into in.dst: the interpreter's own
// one-character str (as InlineChr finds it), which is what str's item lookup returns for a
// character below 128. Anything else jumps to `slow`.
void Lowerer::StrCharAt(const Instr& in, int slow) {
  const Operand s = V(LirReg(in.args[0]));
  RequireAsciiStr(s, slow);
  const Operand index = SmallIntOperand(in.args[1], slow);
  const int i = index.is_vreg() ? index.vreg : Mov(index, Type::kI64);
  const int length = Load(s, offsetof(PyASCIIObject, length), Type::kI64);
  SlowIf(Cond::kUge, Type::kI64, V(i), V(length), slow);
  const int at = Binary(lir::Op::kAdd, s, V(i), Type::kPtr);
  AsciiChar(ZExt(V(Load(V(at), sizeof(PyASCIIObject), Type::kI8))), LirReg(in.dst));
}

}  // namespace a64jit::lower::internal
