# make install: header, both libraries, pkg-config file and CMake package (drape::drape, the
# shared library; drape::drape_static). Layout from GNUInstallDirs (docs/install.md).
include(CMakePackageConfigHelpers)

install(FILES ${CMAKE_SOURCE_DIR}/include/drape.h ${CMAKE_SOURCE_DIR}/include/drape_stability.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS drape_shared drape_core EXPORT drapeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(DRAPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/drape)
install(EXPORT drapeTargets NAMESPACE drape:: FILE drapeTargets.cmake DESTINATION ${DRAPE_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/drapeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/drapeConfig.cmake INSTALL_DESTINATION ${DRAPE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/drapeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/drapeConfig.cmake ${CMAKE_BINARY_DIR}/drapeConfigVersion.cmake
  DESTINATION ${DRAPE_CMAKE_DIR})

# prefix found from the .pc file's own place, so that `cmake --install --prefix DIR` (make install
# PREFIX=DIR) gives a working drape.pc whatever prefix was configured; other paths relative to it.
file(RELATIVE_PATH DRAPE_PC_UP ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" DRAPE_PC_UP "${DRAPE_PC_UP}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(DRAPE_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(DRAPE_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
# What libdrape.a needs besides cjson (a Requires): drape.pc's Libs.private, and drape-static.pc's
# Libs after the archive itself. `-ldrape` finds libdrape.so when both are installed, so a static
# link goes through drape-static.pc, which names the archive.
set(DRAPE_PC_PRIVATE_LIBS "-fopenmp -lassimp -lxml2 -ldxflib -lgmp -lmpfr -lcholmod -lstdc++ -lm")
configure_file(${CMAKE_SOURCE_DIR}/cmake/drape.pc.in ${CMAKE_BINARY_DIR}/drape.pc @ONLY)
configure_file(${CMAKE_SOURCE_DIR}/cmake/drape-static.pc.in ${CMAKE_BINARY_DIR}/drape-static.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/drape.pc ${CMAKE_BINARY_DIR}/drape-static.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# The shipped scenes with their meshes and garment patterns (docs/scene-format.md), so that the
# docs' examples run from an install: PREFIX/share/drape/scenes, found by drape.scene_path().
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenes/ DESTINATION ${CMAKE_INSTALL_DATADIR}/drape/scenes
  FILES_MATCHING PATTERN "*.json" PATTERN "*.obj" PATTERN ".stress_*" EXCLUDE)
include(cmake/python.cmake)
