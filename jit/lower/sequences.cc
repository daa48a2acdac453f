// The object protocol, BUILD_*, lists and tuples: unpacking, indexing and item stores.
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
    CallChecked(in, DictSite(in) ? Helper::a64_dict_getitem : Helper::PyObject_GetItem,
                {a, V(LirReg(in.args[1]))});
  } else if (in.op == Op::kSetItem) {
    if (rt_.py_list_type != 0 && Allows(in, Feedback::kListInt)) return LowerListStore(in);
    CallStatus(in, DictSite(in) ? Helper::a64_dict_setitem : Helper::PyObject_SetItem,
               {a, V(LirReg(in.args[1])), V(LirReg(in.args[2]))});
  } else if (in.op == Op::kGetIter) {
    CallChecked(in, Helper::PyObject_GetIter, {a});
  } else {
    NoRuleIn("LowerObjectProtocol", in);
  }
}

// A subscript 3.11 specialised to an exact dict (BINARY_SUBSCR_DICT, STORE_SUBSCR_DICT): its
// helper goes to the dict's own lookup or store first (a64_dict_getitem, a64_dict_setitem).
bool Lowerer::DictSite(const Instr& in) {
  return in.feedback == Feedback::kDict && Take(decisions_, Decision::kLowerDictSubscript, in.bc);
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
  if (in.op == Op::kMakeFunction) {  // the site's cache keeps PyFunction_New's lookups
    SiteCache* site = NewSiteCache();
    return CallChecked(in, Helper::a64_make_function,
                       {V(frame_), V(p), count(), Operand::Imm(in.imm),
                        site != nullptr ? V(SiteAddress(site)) : Operand::Imm(0)});
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
