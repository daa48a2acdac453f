#include "golden/fake_addresses.h"

#include <cstdlib>
#include <memory>
#include <optional>

#include "jit/runtime/site_cache.h"

namespace a64jit::golden {

namespace {

constexpr uint64_t kFakeConsts = 0x1000000, kFakeNames = 0x2000000, kFakeCaches = 0x3000000;
constexpr uint64_t kFakeCode = 0x4000000, kFakeObjects = 0x5000000;

}  // namespace

void UseFakeAddresses(lower::RuntimeAddresses* rt_out) {
  lower::RuntimeAddresses& rt = *rt_out;
  for (size_t i = 0; i < rt.consts.size(); i++) rt.consts[i] = kFakeConsts + 16 * i;
  for (size_t i = 0; i < rt.names.size(); i++) rt.names[i] = kFakeNames + 16 * i;
  rt.first_instr = kFakeCode;
  // One 16-byte slot each, in this order (goldens show kFakeObjects + 16 * index).
  uint64_t* const objects[] = {
      &rt.py_true,           &rt.py_false,           &rt.py_none,
      &rt.py_long_type,      &rt.eval_breaker,       &rt.null_sink,
      &rt.call_stub,         &rt.py_list_type,       &rt.py_tuple_type,
      &rt.py_list_iter_type, &rt.py_tuple_iter_type, &rt.py_range_iter_type,
      &rt.py_float_type,     &rt.float_free_list,    &rt.tracemalloc_tracing,
      &rt.py_str_type,       &rt.builtin_len,        &rt.builtin_isinstance,
      &rt.list_append,       &rt.small_int_zero,     &rt.builtin_ord,
      &rt.builtin_chr,       &rt.ascii_char_zero,    &rt.py_module_type,
      &rt.site_stubs,        &rt.send_stub,          &rt.py_type_type,
      &rt.py_dict_type,      &rt.py_enum_type,       &rt.py_dict_item_iter_type,
      &rt.py_zip_type};
  // The slots that follow (a list of its own, which the formatter keeps short).
  uint64_t* const more_objects[] = {&rt.py_dict_key_iter_type, &rt.py_dict_value_iter_type};
  size_t slot = 0;
  for (uint64_t* object : objects) *object = kFakeObjects + 16 * slot++;
  for (uint64_t* object : more_objects) *object = kFakeObjects + 16 * slot++;
  rt.ascii_char_stride = 56;  // 3.11's: a PyASCIIObject and two bytes, padded
  auto next_cache = std::make_shared<uint64_t>(kFakeCaches);
  rt.reserve_site_caches = [](int) { return reinterpret_cast<runtime::SiteCache*>(kFakeCaches); };
  rt.set_miss_how = [](runtime::SiteCache*, int64_t) {};  // the fake caches are not memory
  rt.set_attr_form = [](runtime::SiteCache*, runtime::AttrForm) {};
  rt.new_site_cache = [next_cache](int, int, int) {
    auto* cache = reinterpret_cast<runtime::SiteCache*>(*next_cache);
    *next_cache += runtime::kNextSiteCache;  // one after another, as in the runtime's rooms
    return cache;
  };
}

lower::RuntimeAddresses FakeAddressesOfReprs(const hir::CodeInfo& code) {
  using Kind = lower::RuntimeAddresses::ConstKind;
  lower::RuntimeAddresses rt;
  for (const std::string& repr : code.const_reprs) {
    char* end = nullptr;
    const long long v = std::strtoll(repr.c_str(), &end, 10);
    const bool is_int = !repr.empty() && *end == '\0';
    std::strtod(repr.c_str(), &end);
    const bool is_float = !is_int && !repr.empty() && *end == '\0';
    const bool is_str = repr.size() >= 2 && (repr[0] == '\'' || repr[0] == '"');
    const bool one_char = is_str && repr.size() == 3 && static_cast<unsigned char>(repr[1]) < 128;
    const bool is_tuple = !repr.empty() && repr[0] == '(';
    rt.consts.push_back(0);
    rt.small_int_consts.push_back(is_int && std::llabs(v) < (1LL << 30) ? std::optional<int64_t>(v)
                                                                        : std::nullopt);
    rt.const_kinds.push_back(is_int     ? Kind::kInt
                             : is_float ? Kind::kFloat
                             : is_str   ? Kind::kStr
                             : is_tuple ? Kind::kTuple
                                        : Kind::kOther);
    rt.ascii_char_consts.push_back(one_char ? static_cast<int>(repr[1]) : -1);
  }
  rt.names.assign(code.names.size(), 0);
  UseFakeAddresses(&rt);
  return rt;
}

}  // namespace a64jit::golden
